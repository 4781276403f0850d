package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
)

// TestMigration14RepostsCJKDocuments: a file from before migration 14
// posted a run of Chinese characters as one term; after the migration its
// documents are posted as bigrams, statistics included, and English
// documents keep their postings untouched.
func TestMigration14RepostsCJKDocuments(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	idx := st.Index()
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	docs := []lore.IndexDoc{
		{ID: "zh", Kind: lore.KindFact, Scope: sc, Text: "我喜歡攀岩，常去龍洞"},
		{ID: "en", Kind: lore.KindFact, Scope: sc, Text: "I like climbing"},
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	part := vecKey{tenant: "t", user: "u"}.part()
	var wantDocs, wantTokens int
	if err := st.r.QueryRowContext(ctx, `SELECT docs, tokens FROM part_stats WHERE part = ?`, part).Scan(&wantDocs, &wantTokens); err != nil {
		t.Fatalf("part stats: %v", err)
	}
	// As Lore before migration 14 left it: each run of Chinese characters
	// one term, so the document has two terms instead of seven.
	for _, q := range []string{
		`DELETE FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'zh')`,
		`INSERT INTO doc_terms (part, term, seq, tf, len) SELECT ?1, '我喜歡攀岩', seq, 1, 2 FROM docs WHERE id = 'zh'`,
		`INSERT INTO doc_terms (part, term, seq, tf, len) SELECT ?1, '常去龍洞', seq, 1, 2 FROM docs WHERE id = 'zh'`,
		`UPDATE docs SET tokens = 2 WHERE id = 'zh'`,
		`UPDATE part_stats SET tokens = tokens - 5 WHERE part = ?1`,
	} {
		if _, err := st.w.ExecContext(ctx, q, part); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var enSeqPostings int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'en')`).Scan(&enSeqPostings); err != nil {
		t.Fatalf("count: %v", err)
	}
	// Migration 14 runs again over them (rewinding user_version would
	// re-run every later migration too); the reopen's backfill re-posts.
	if err := st.migrateOne(ctx, 14); err != nil {
		t.Fatalf("migration 14: %v", err)
	}
	idx.Close()
	st.Close()

	st, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer st.Close()
	var gotDocs, gotTokens, stale, en int
	if err := st.r.QueryRowContext(ctx, `SELECT docs, tokens FROM part_stats WHERE part = ?`, part).Scan(&gotDocs, &gotTokens); err != nil {
		t.Fatalf("part stats: %v", err)
	}
	if gotDocs != wantDocs || gotTokens != wantTokens {
		t.Errorf("part stats after migration: %d docs, %d tokens; want %d and %d", gotDocs, gotTokens, wantDocs, wantTokens)
	}
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM term_stats WHERE term IN ('我喜歡攀岩', '常去龍洞')`).Scan(&stale); err != nil || stale != 0 {
		t.Errorf("old whole-run terms in term_stats: %d (err %v), want 0", stale, err)
	}
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'en')`).Scan(&en); err != nil || en != enSeqPostings {
		t.Errorf("English postings after migration: %d (err %v), want %d", en, err, enSeqPostings)
	}
	idx = st.Index()
	defer idx.Close()
	for _, q := range []string{"龍洞", "攀岩", "我喜歡攀岩嗎"} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: q, Limit: 5})
		if err != nil || len(hits) != 1 || hits[0].ID != "zh" {
			t.Errorf("SearchText(%q)=%+v err=%v, want the Chinese document", q, hits, err)
		}
	}
}
