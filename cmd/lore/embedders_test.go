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
// process, its instruction before queries).
func TestBGESearch(t *testing.T) {
	dir := installedModel(t, "LORE_BGE_MODEL_DIR", bert.BGESmall(), "make model-bge")
	base, _ := startServe(t, t.TempDir(), nil, "--embedder", "bge", "--bge-model-dir", dir)
	checkParaphraseSearch(t, base)
}

// TestE5V2Search runs `lore serve --embedder e5v2` (e5-small-v2 in process,
// "query: " and "passage: " before queries and stored texts).
func TestE5V2Search(t *testing.T) {
	dir := installedModel(t, "LORE_E5V2_MODEL_DIR", bert.E5SmallV2(), "make model-e5v2")
	base, _ := startServe(t, t.TempDir(), nil, "--embedder", "e5v2", "--e5v2-model-dir", dir)
	checkParaphraseSearch(t, base)
}

// installedModel is the directory of an installed model (envVar, or its
// default under ./lore-data), absolute; the test is skipped with a how-to
// when it is missing, except under CI=true.
func installedModel(t *testing.T, envVar string, m bert.Model, install string) string {
	t.Helper()
	dir := os.Getenv(envVar)
	if dir == "" {
		dir = m.DefaultModelDir("../../lore-data")
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		storetest.Unavailable(t, "no "+m.Name+" model in "+dir+": run `"+install+"`, or set "+envVar)
	}
	dir, _ = filepath.Abs(dir)
	return dir
}

// checkParaphraseSearch asks questions that share no content word with the
// memory that answers them, so dense retrieval has to find it.
func checkParaphraseSearch(t *testing.T, base string) {
	t.Helper()
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
