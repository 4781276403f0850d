package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

// TestMigration31RepostsTraditionalDocuments: a file from before migration
// 31 posted Traditional bigrams unfolded (哪裡); after the migration the
// document is posted with the Simplified fold, so a Simplified query finds
// it, and English documents keep their postings untouched.
func TestMigration31RepostsTraditionalDocuments(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	idx := st.Index()
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	docs := []lore.IndexDoc{
		{ID: "zh", Kind: lore.KindFact, Scope: sc, Text: "我妹妹住在哪裡"},
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
	// As Lore before migration 31 left it: the same six bigrams, the last
	// one Traditional.
	qs := []string{`DELETE FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'zh')`}
	for _, term := range []string{"我妹", "妹妹", "妹住", "住在", "在哪", "哪裡"} {
		qs = append(qs, `INSERT INTO doc_terms (part, term, seq, tf, len) SELECT ?1, '`+term+`', seq, 1, 6 FROM docs WHERE id = 'zh'`)
	}
	for _, q := range qs {
		if _, err := st.w.ExecContext(ctx, q, part); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var enPostings int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'en')`).Scan(&enPostings); err != nil {
		t.Fatalf("count: %v", err)
	}
	if err := st.migrateOne(ctx, 31); err != nil {
		t.Fatalf("migration 31: %v", err)
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
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM doc_terms WHERE term = '哪裡'`).Scan(&stale); err != nil || stale != 0 {
		t.Errorf("unfolded term 哪裡 still posted: %d (err %v), want 0", stale, err)
	}
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'en')`).Scan(&en); err != nil || en != enPostings {
		t.Errorf("English postings after migration: %d (err %v), want %d", en, err, enPostings)
	}
	idx = st.Index()
	defer idx.Close()
	for _, q := range []string{"我妹妹住在哪里", "哪裡", "哪里"} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: q, Limit: 5})
		if err != nil || len(hits) != 1 || hits[0].ID != "zh" {
			t.Errorf("SearchText(%q)=%+v err=%v, want the Chinese document", q, hits, err)
		}
	}
}

// TestMigration31RangesCoverFold: every character the analyzer folds
// (index/terms/data/t2s.txt) lies in the ranges migration 31 re-posts.
func TestMigration31RangesCoverFold(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	data, err := os.ReadFile("../../index/terms/data/t2s.txt")
	if err != nil {
		t.Fatalf("read fold table: %v", err)
	}
	// The migration's own condition, on a bound string instead of docs.text.
	mig, err := os.ReadFile("migrations/0031_cjk_fold.sql")
	if err != nil {
		t.Fatalf("read migration: %v", err)
	}
	var cond string
	for _, line := range strings.Split(string(mig), "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(line), "WHERE text GLOB"); ok {
			cond = "SELECT ?1 GLOB" + strings.ReplaceAll(c, "text GLOB", "?1 GLOB")
		}
	}
	if cond == "" {
		t.Fatal("no WHERE text GLOB line in migration 31")
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		src, _, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		var hit bool
		if err := st.r.QueryRowContext(ctx, cond, "x"+src+"y").Scan(&hit); err != nil {
			t.Fatalf("glob: %v", err)
		}
		if !hit {
			t.Errorf("%s (U+%04X) is folded but outside migration 31's ranges", src, []rune(src)[0])
		}
	}
	if n < 4000 {
		t.Fatalf("%d fold lines read, want about 4100", n)
	}
}
