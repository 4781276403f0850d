package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore/embed/bert"
	"github.com/lore-memory/lore/storetest"
)

// TestBGESearch runs `lore serve --embedder bge` (bge-small-en-v1.5 in
// process, its instruction before queries) and asks questions that share
// no content word with the memory that answers them, so dense retrieval
// has to find it.
func TestBGESearch(t *testing.T) {
	dir := os.Getenv("LORE_BGE_MODEL_DIR")
	if dir == "" {
		dir = bert.BGESmall().DefaultModelDir("../../lore-data")
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		storetest.Unavailable(t, "no bge model in "+dir+": run `make model-bge`, or set LORE_BGE_MODEL_DIR")
	}
	dir, _ = filepath.Abs(dir)
	base, _ := startServe(t, t.TempDir(), nil, "--embedder", "bge", "--bge-model-dir", dir)
	msgs := []map[string]any{}
	for _, text := range []string{
		"I went to the climbing gym with Melanie on Saturday.",
		"Caroline moved to Paris last spring to study painting.",
		"My favourite book is a novel about a lighthouse keeper.",
		"We adopted a puppy named Oscar from the shelter.",
		"The dentist said I need a crown on my back molar.",
	} {
		msgs = append(msgs, map[string]any{"role": "user", "content": text})
	}
	call(t, 200, "POST", base+"/v1/memories", map[string]any{"user_id": "caroline", "infer": false, "messages": msgs}, nil)
	for _, tt := range []struct{ query, wantTop string }{
		{"Do they have a pet?", "We adopted a puppy"},
		{"What does she like to read?", "My favourite book"},
		{"any tooth problems?", "The dentist said"},
		{"Which city is Caroline in?", "Caroline moved to Paris"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			var found struct {
				Results []struct {
					Memory string `json:"memory"`
				} `json:"results"`
			}
			call(t, 200, "POST", base+"/v1/memories/search", map[string]any{"user_id": "caroline", "query": tt.query, "top_k": 5}, &found)
			if len(found.Results) == 0 || !strings.HasPrefix(found.Results[0].Memory, tt.wantTop) {
				t.Fatalf("search %q: results %+v, want %q… first", tt.query, found.Results, tt.wantTop)
			}
		})
	}
}
