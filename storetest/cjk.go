package storetest

import (
	"testing"

	"github.com/lore-memory/lore"
)

// runCJKFold checks that BM25 alone matches Chinese across scripts: the
// analyzer folds Traditional characters to Simplified (index/terms), so a
// query in one script finds a memory written in the other, first, on every
// backend.
func runCJKFold(s suite, idx lore.Index) {
	s.run("Index/ChineseScriptsFold", func(t *testing.T) {
		ctx := ctxFor(t)
		sc := userScope()
		cleanupIndex(t, idx, sc)
		tw := doc(sc, "我住在台北，在台積電當工程師。", 0, nil)
		sis := doc(sc, "我妹妹小美上个月搬到东京了，她住在涩谷。", 1, nil)
		climb := doc(sc, "我喜歡攀岩，常去龍洞，程度大約5.11a。", 2, nil)
		other := doc(sc, "I moved to Taipei for a job at a chip maker.", 3, nil)
		must(t, "Upsert", idx.Upsert(ctx, []lore.IndexDoc{tw, sis, climb, other}))
		for _, tt := range []struct {
			query string
			want  string
		}{
			// Each query's bigrams match its memory only once folded.
			{"台积电", tw.ID},      // Simplified query, Traditional memory
			{"龙洞的路线", climb.ID}, // 龙洞 is 龍洞 folded
			{"搬去東京", sis.ID},    // Traditional query, Simplified memory
			{"澀谷", sis.ID},
		} {
			hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: tt.query, Limit: 10})
			must(t, "SearchText "+tt.query, err)
			if len(hits) == 0 || hits[0].ID != tt.want {
				t.Errorf("SearchText(%q): top %v, want %s first", tt.query, hitIDs(hits), tt.want)
			}
		}
	})
}
