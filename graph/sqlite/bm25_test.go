package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
)

// openIndex opens a fresh store and returns its index view; both close at
// the end of the test.
func openIndex(t *testing.T) (*Store, *Index) {
	t.Helper()
	st, err := Open(context.Background(), filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	idx := st.Index()
	t.Cleanup(func() {
		idx.Close()
		st.Close()
	})
	return st, idx
}

// mustUpsert indexes docs or fails the test.
func mustUpsert(t *testing.T, idx *Index, docs ...lore.IndexDoc) {
	t.Helper()
	if err := idx.Upsert(context.Background(), docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
}

// searches runs each query text in each scope and returns the hits by
// "scope|text".
func searches(t *testing.T, idx *Index, scopes []lore.Scope, texts []string, limit int) map[string][]lore.IndexHit {
	t.Helper()
	out := map[string][]lore.IndexHit{}
	for _, sc := range scopes {
		for _, text := range texts {
			hits, err := idx.SearchText(context.Background(), lore.IndexQuery{Scope: sc, Text: text, Limit: limit})
			if err != nil {
				t.Fatalf("SearchText(%+v, %q): %v", sc, text, err)
			}
			out[fmt.Sprintf("%+v|%s", sc, text)] = hits
		}
	}
	return out
}

// sameSearches fails the test where two runs of searches differ in a hit,
// its order or its score (exactly).
func sameSearches(t *testing.T, what string, got, want map[string][]lore.IndexHit) {
	t.Helper()
	for key, w := range want {
		if g := got[key]; !slices.Equal(g, w) {
			t.Errorf("%s: %s: hits=%v, want %v", what, key, g, w)
		}
	}
}

// partStatsRows returns the part_stats table as "part docs tokens" lines.
func partStatsRows(t *testing.T, st *Store) []string {
	t.Helper()
	rows, err := st.r.QueryContext(context.Background(), `SELECT part, docs, tokens FROM part_stats ORDER BY part`)
	if err != nil {
		t.Fatalf("read part_stats: %v", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var part, docs, tokens int64
		if err := rows.Scan(&part, &docs, &tokens); err != nil {
			t.Fatalf("read part_stats: %v", err)
		}
		out = append(out, fmt.Sprintf("%d %d %d", part, docs, tokens))
	}
	return out
}

// checkTermStats fails the test unless term_stats holds, for each partition
// and term with postings, their number, and nothing else.
func checkTermStats(t *testing.T, st *Store) {
	t.Helper()
	var bad int
	err := st.r.QueryRowContext(context.Background(), `SELECT count(*) FROM (
		SELECT part, term, count(*) AS df FROM doc_terms GROUP BY part, term
		EXCEPT SELECT part, term, df FROM term_stats)`).Scan(&bad)
	if err != nil || bad != 0 {
		t.Errorf("terms whose df differs from their postings=%d err=%v, want none", bad, err)
	}
	err = st.r.QueryRowContext(context.Background(), `SELECT count(*) FROM term_stats t
		WHERE NOT EXISTS (SELECT 1 FROM doc_terms d WHERE d.part = t.part AND d.term = t.term)`).Scan(&bad)
	if err != nil || bad != 0 {
		t.Errorf("term_stats rows without postings=%d err=%v, want none", bad, err)
	}
}

// postingCount returns the number of rows of doc_terms.
func postingCount(t *testing.T, st *Store) int {
	t.Helper()
	var n int
	if err := st.r.QueryRowContext(context.Background(), `SELECT count(*) FROM doc_terms`).Scan(&n); err != nil {
		t.Fatalf("count postings: %v", err)
	}
	return n
}

// randomDocs returns n episode documents in sc whose texts draw words from
// vocab.
func randomDocs(r *rand.Rand, prefix string, sc lore.Scope, n int, vocab []string) []lore.IndexDoc {
	docs := make([]lore.IndexDoc, n)
	for i := range docs {
		words := make([]string, 3+r.IntN(10))
		for j := range words {
			words[j] = vocab[r.IntN(len(vocab))]
		}
		docs[i] = lore.IndexDoc{ID: fmt.Sprintf("%s-%d", prefix, i), Kind: lore.KindEpisode, Scope: sc,
			Text: strings.Join(words, " "), Time: time.Unix(int64(i), 0)}
	}
	return docs
}

var testVocab = strings.Fields(`Alice Bob dinner dinners sushi Kyoto café cafe running runs river rivers
	hiking mountain Paris Lisbon coffee tea dog dogs cat adopted adopting birthday party guitar piano`)

// TestSearchTextStatisticsArePerPartition checks that other users' and
// other tenants' documents, however many and whatever their words, change
// neither the hits nor the scores of a user's search (FTS5's file-wide
// statistics did).
func TestSearchTextStatisticsArePerPartition(t *testing.T) {
	st, idx := openIndex(t)
	r := rand.New(rand.NewPCG(3, 4))
	alice := lore.Scope{TenantID: "t", UserID: "alice", AgentID: "helper"}
	mustUpsert(t, idx, randomDocs(r, "alice", alice, 60, testVocab)...)
	scopes := []lore.Scope{
		{TenantID: "t", UserID: "alice"},
		{TenantID: "t", UserID: "alice", AgentID: "helper"},
		{TenantID: "t", UserID: "alice", RunID: "none"},
	}
	texts := []string{"sushi dinner in Kyoto", "cafe", "dogs running by the river", "Alice", "party guitar piano tea"}
	before := searches(t, idx, scopes, texts, 10)
	beforeAll := searches(t, idx, scopes[:1], texts, 1000)
	alicePart := fmt.Sprint(readKey(alice).part()) + " "
	stats := slices.DeleteFunc(partStatsRows(t, st), func(row string) bool { return !strings.HasPrefix(row, alicePart) })
	if len(stats) != 1 {
		t.Fatalf("alice's part_stats rows=%q, want one", stats)
	}

	// Another user of the same tenant and agent, the same user id in
	// another tenant, and the agent's own documents, all heavy in the
	// query's words.
	heavy := strings.Fields("sushi dinner Kyoto cafe dogs running river Alice party")
	mustUpsert(t, idx, randomDocs(r, "bob", lore.Scope{TenantID: "t", UserID: "bob", AgentID: "helper"}, 300, heavy)...)
	mustUpsert(t, idx, randomDocs(r, "other", lore.Scope{TenantID: "t2", UserID: "alice", AgentID: "helper"}, 300, heavy)...)
	mustUpsert(t, idx, randomDocs(r, "agent", lore.Scope{TenantID: "t", AgentID: "helper"}, 100, heavy)...)

	sameSearches(t, "after other users' documents", searches(t, idx, scopes, texts, 10), before)
	sameSearches(t, "after other users' documents, every hit", searches(t, idx, scopes[:1], texts, 1000), beforeAll)
	if len(beforeAll[fmt.Sprintf("%+v|%s", scopes[0], "cafe")]) == 0 {
		t.Fatalf("no hits for cafe: the test would prove nothing")
	}
	if got := partStatsRows(t, st); !slices.Contains(got, stats[0]) {
		t.Errorf("alice's part_stats row %q changed; rows now %q", stats[0], got)
	}
}

// TestSearchTextScoresAreBM25 checks scores against BM25 computed by hand,
// and that ties are ordered by id even at the limit.
func TestSearchTextScoresAreBM25(t *testing.T) {
	_, idx := openIndex(t)
	sc := testScope()
	// Terms after analysis: appl banana appl | banana cherri | cherri date
	// fig grape | kiwi lemon | melon | lemon kiwi. N = 6, 14 terms,
	// avgdl = 7/3. The two kiwi documents tie; the one indexed last has the
	// smaller id.
	docs := []lore.IndexDoc{
		{ID: "d0", Text: "apple banana apples"}, {ID: "d1", Text: "Banana, cherry!"},
		{ID: "d2", Text: "cherries date fig grape"}, {ID: "z3", Text: "kiwi lemon"},
		{ID: "d4", Text: "melon"}, {ID: "a5", Text: "lemon kiwi"},
	}
	for i := range docs {
		docs[i].Kind, docs[i].Scope = lore.KindFact, sc
	}
	mustUpsert(t, idx, docs...)
	// Another user's documents with the same words count for nothing.
	other := lore.Scope{TenantID: "t", UserID: "other"}
	mustUpsert(t, idx, lore.IndexDoc{ID: "o1", Kind: lore.KindFact, Scope: other, Text: "apple apple kiwi cherry"})

	// appl: df 1, idf ln(5.5/1.5); cherri: df 2, idf ln(4.5/2.5); each
	// term adds idf·tf·2.2 / (tf + 1.2·(0.25 + 0.75·len/avgdl)).
	// d0 = ln(11/3)·4.4/(2 + 1.2·(0.25 + 0.75·3·3/7))
	// d1 = ln(1.8)·2.2/(1 + 1.2·(0.25 + 0.75·2·3/7)), d2 likewise with len 4.
	cases := []struct {
		text  string
		limit int
		want  []lore.IndexHit
	}{
		{"apple cherry", 10, []lore.IndexHit{
			{ID: "d0", Kind: lore.KindFact, Score: 1.6536328888930594},
			{ID: "d1", Kind: lore.KindFact, Score: 0.6242699751374231},
			{ID: "d2", Kind: lore.KindFact, Score: 0.45487008238656457},
		}},
		{"kiwi", 10, []lore.IndexHit{
			{ID: "a5", Kind: lore.KindFact, Score: 0.6242699751374231},
			{ID: "z3", Kind: lore.KindFact, Score: 0.6242699751374231},
		}},
		{"kiwis", 1, []lore.IndexHit{{ID: "a5", Kind: lore.KindFact, Score: 0.6242699751374231}}},
	}
	for _, c := range cases {
		got, err := idx.SearchText(context.Background(), lore.IndexQuery{Scope: sc, Text: c.text, Limit: c.limit})
		if err != nil {
			t.Fatalf("SearchText(%q): %v", c.text, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("SearchText(%q)=%v, want %v", c.text, got, c.want)
		}
		for i := range got {
			if got[i].ID != c.want[i].ID || got[i].Kind != c.want[i].Kind || math.Abs(got[i].Score-c.want[i].Score) > 1e-12 {
				t.Errorf("SearchText(%q) hit %d=%+v, want %+v", c.text, i, got[i], c.want[i])
			}
		}
	}
}

// TestSearchTextStatisticsFollowUpdatesAndDeletes replaces, moves and
// deletes documents, then checks that searches score exactly as in a fresh
// database holding only what is left.
func TestSearchTextStatisticsFollowUpdatesAndDeletes(t *testing.T) {
	ctx := context.Background()
	u1 := lore.Scope{TenantID: "t", UserID: "u1"}
	u2 := lore.Scope{TenantID: "t", UserID: "u2"}
	ag := lore.Scope{TenantID: "t", AgentID: "ag"}
	u1ag := lore.Scope{TenantID: "t", UserID: "u1", AgentID: "ag"}
	run := lore.Scope{TenantID: "t", UserID: "u1", RunID: "r1"}
	d := func(id string, sc lore.Scope, text string) lore.IndexDoc {
		return lore.IndexDoc{ID: id, Kind: lore.KindFact, Scope: sc, Text: text, Time: time.Unix(100, 0)}
	}

	st, idx := openIndex(t)
	mustUpsert(t, idx,
		d("a", u1, "red apple pie"), d("b", u1, "green apple tart"), d("c", u1, "fresh apple juice"),
		d("d", run, "orange juice"), d("e", run, "banana split with apple"), d("f", u2, "apple crumble"),
		d("g", ag, "apple sauce"), d("h", u1ag, "apple cider"))
	c := d("c", u1, "fresh apple juice")
	c.Time = time.Unix(200, 0)
	mustUpsert(t, idx,
		d("a", u1, "red cherry pie"),         // new text, same partition
		d("b", u2, "green apple tart"),       // same text, another user
		d("f", u1, "hot apple crumble"),      // new text and user
		c,                                    // same text, a new time
		d("i", u1, "first version, apple"),   // an id twice in one batch:
		d("i", u1, "second version of pear")) // the second wins
	if err := idx.Delete(ctx, u2, []string{"a"}); err != nil { // not u2's: stays
		t.Fatalf("Delete: %v", err)
	}
	if err := idx.Delete(ctx, u1, []string{"c"}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := idx.DeleteScope(ctx, run); err != nil { // d and e
		t.Fatalf("DeleteScope: %v", err)
	}

	fresh, freshIdx := openIndex(t)
	mustUpsert(t, freshIdx,
		d("h", u1ag, "apple cider"), d("g", ag, "apple sauce"), d("i", u1, "second version of pear"),
		d("a", u1, "red cherry pie"), d("b", u2, "green apple tart"), d("f", u1, "hot apple crumble"))

	scopes := []lore.Scope{u1, u2, ag, u1ag}
	texts := []string{"apple", "cherry pie", "pear apple juice", "green tart", "orange banana split"}
	want := searches(t, freshIdx, scopes, texts, 10)
	sameSearches(t, "after updates and deletes", searches(t, idx, scopes, texts, 10), want)
	if got, want := partStatsRows(t, st), partStatsRows(t, fresh); !slices.Equal(got, want) {
		t.Errorf("part_stats=%q, want %q as in a fresh database", got, want)
	}
	if got, want := postingCount(t, st), postingCount(t, fresh); got != want {
		t.Errorf("postings=%d, want %d as in a fresh database", got, want)
	}
	checkTermStats(t, st)
	hits := want[fmt.Sprintf("%+v|%s", u1, "apple")]
	if len(hits) != 2 {
		t.Fatalf("fresh database's hits for apple in u1=%v, want f and h: the test would prove little", hits)
	}

	// Deleting everything leaves no statistics behind.
	for _, sc := range []lore.Scope{{TenantID: "t", UserID: "u1"}, u2, ag} {
		if err := idx.DeleteScope(ctx, sc); err != nil {
			t.Fatalf("DeleteScope: %v", err)
		}
	}
	if rows, n := partStatsRows(t, st), postingCount(t, st); len(rows) != 0 || n != 0 {
		t.Errorf("after deleting every document part_stats=%q postings=%d, want none", rows, n)
	}
	checkTermStats(t, st)
}

// TestOpenBackfillsOlderIndex builds a file as the FTS5 version of Lore
// wrote it, posts only a few of its documents as a backfill interrupted
// after one batch would have, and checks that Open finishes the backfill
// and that searches then score as in a database indexed from the start.
func TestOpenBackfillsOlderIndex(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	db := createAt(t, path, 3)
	r := rand.New(rand.NewPCG(5, 6))
	var docs []lore.IndexDoc
	for _, sc := range []lore.Scope{
		{TenantID: "t", UserID: "alice"}, {TenantID: "t", UserID: "bob", AgentID: "helper"}, {TenantID: "t", AgentID: "helper"},
	} {
		docs = append(docs, randomDocs(r, sc.UserID+sc.AgentID, sc, 2*backfillBatch/3, testVocab)...)
	}
	err := (&Store{w: db}).write(ctx, func(tx *sql.Tx) error {
		for _, d := range docs {
			// The insert of version 3, whose triggers fill docs_fts.
			_, err := tx.ExecContext(ctx, `INSERT INTO docs (id, kind, tenant_id, user_id, agent_id, run_id, text, scope_tokens, time)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, d.ID, string(d.Kind), d.Scope.TenantID, d.Scope.UserID, d.Scope.AgentID,
				d.Scope.RunID, d.Text, "", micros(d.Time))
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("insert version 3 docs: %v", err)
	}
	var fts int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM docs_fts WHERE docs_fts MATCH 'dinner'`).Scan(&fts); err != nil || fts == 0 {
		t.Fatalf("version 3 FTS5 matches for dinner=%d err=%v, want some", fts, err)
	}
	db.Close()
	// Every migration and one batch of the backfill, then a crash. (The
	// backfill is this version's, which writes the generations of
	// migration 32, so the schema is the latest one.)
	db = createAt(t, path, math.MaxInt)
	if n, err := (&Store{w: db}).postUnposted(ctx, 7); err != nil || n != 7 {
		t.Fatalf("postUnposted=%d err=%v, want 7", n, err)
	}
	db.Close()

	st, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	idx := st.Index()
	defer idx.Close()
	var left int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM docs WHERE tokens IS NULL`).Scan(&left); err != nil || left != 0 {
		t.Errorf("documents left unposted=%d err=%v, want 0", left, err)
	}
	fresh, freshIdx := openIndex(t)
	mustUpsert(t, freshIdx, docs...)
	scopes := []lore.Scope{{TenantID: "t", UserID: "alice"}, {TenantID: "t", UserID: "bob"}, {TenantID: "t", AgentID: "helper"}}
	texts := []string{"sushi dinner in Kyoto", "cafe", "dogs running by the river", "Bob's guitar"}
	want := searches(t, freshIdx, scopes, texts, 20)
	sameSearches(t, "after backfill", searches(t, idx, scopes, texts, 20), want)
	if hits := want[fmt.Sprintf("%+v|%s", scopes[0], "cafe")]; len(hits) == 0 {
		t.Fatalf("no hits for cafe: the test would prove nothing")
	}
	if got, want := partStatsRows(t, st), partStatsRows(t, fresh); !slices.Equal(got, want) {
		t.Errorf("part_stats=%q, want %q as in a fresh database", got, want)
	}
	checkTermStats(t, st)
}

// TestSearchTextMatchesExhaustiveBM25 compares searches, with filters and
// limits that make the pruning stop at different terms, against BM25
// computed over every document of the partition.
func TestSearchTextMatchesExhaustiveBM25(t *testing.T) {
	ctx := context.Background()
	_, idx := openIndex(t)
	r := rand.New(rand.NewPCG(7, 8))
	vocab := make([]string, 300)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	var docs []lore.IndexDoc
	for i := range 1500 {
		sc := lore.Scope{TenantID: "t", UserID: []string{"alice", "alice", "bob"}[i%3], RunID: []string{"", "r1", "r2"}[r.IntN(3)]}
		if r.IntN(2) == 0 {
			sc.AgentID = "helper"
		}
		if i%10 == 0 {
			sc.UserID = "" // the agent's own
			sc.AgentID = "helper"
		}
		words := make([]string, 4+r.IntN(12))
		for j := range words {
			words[j] = vocab[zipf.Uint64()]
		}
		kind := lore.KindFact
		if r.IntN(3) == 0 {
			kind = lore.KindEpisode
		}
		docs = append(docs, lore.IndexDoc{ID: fmt.Sprintf("d%04d", r.IntN(10000)*1000+i), Kind: kind, Scope: sc,
			Text: strings.Join(words, " "), Time: time.Unix(int64(r.IntN(1000)), 0)})
	}
	for lo := 0; lo < len(docs); lo += 500 {
		mustUpsert(t, idx, docs[lo:lo+500]...)
	}

	since, until := time.Unix(200, 0), time.Unix(700, 0)
	queries := []lore.IndexQuery{
		{Scope: lore.Scope{TenantID: "t", UserID: "alice"}},
		{Scope: lore.Scope{TenantID: "t", UserID: "alice"}, Kinds: []lore.DocKind{lore.KindEpisode}},
		{Scope: lore.Scope{TenantID: "t", UserID: "alice", RunID: "r1"}},
		{Scope: lore.Scope{TenantID: "t", UserID: "alice", AgentID: "helper"}, Since: &since, Until: &until},
		{Scope: lore.Scope{TenantID: "t", AgentID: "helper"}},
		{Scope: lore.Scope{TenantID: "t", AgentID: "helper", RunID: "r2"}, Kinds: []lore.DocKind{lore.KindFact}},
	}
	for qn := range 120 {
		q := queries[qn%len(queries)]
		q.Limit = []int{1, 3, 10, 40}[qn%4]
		words := make([]string, 2+r.IntN(4))
		for j := range words {
			if r.IntN(3) == 0 {
				words[j] = vocab[r.IntN(len(vocab))] // often rare
			} else {
				words[j] = vocab[zipf.Uint64()] // often common
			}
		}
		q.Text = strings.Join(words, " ")
		got, err := idx.SearchText(ctx, q)
		if err != nil {
			t.Fatalf("SearchText: %v", err)
		}
		want := exhaustiveBM25(docs, q)
		if len(got) != len(want) {
			t.Fatalf("query %d %+v: %d hits %v, want %d %v", qn, q, len(got), got, len(want), want)
		}
		for i := range got {
			if got[i].ID != want[i].ID || got[i].Kind != want[i].Kind || math.Abs(got[i].Score-want[i].Score) > 1e-12 {
				t.Fatalf("query %d %+v: hit %d=%+v, want %+v", qn, q, i, got[i], want[i])
			}
		}
	}
}

// exhaustiveBM25 ranks docs for q the plain way: statistics over the
// documents of q's partition, every one of them scored and filtered.
func exhaustiveBM25(docs []lore.IndexDoc, q lore.IndexQuery) []lore.IndexHit {
	inPart := func(sc lore.Scope) bool {
		if sc.TenantID != q.Scope.TenantID {
			return false
		}
		if q.Scope.UserID != "" {
			return sc.UserID == q.Scope.UserID
		}
		// An agent's partition holds its own documents only.
		return sc.UserID == "" && sc.AgentID == q.Scope.AgentID
	}
	var part [][]string
	var partDocs []lore.IndexDoc
	total := 0
	for _, d := range docs {
		if inPart(d.Scope) {
			ts := terms.Analyze(d.Text)
			part, partDocs, total = append(part, ts), append(partDocs, d), total+len(ts)
		}
	}
	n, avgdl := float64(len(part)), float64(total)/float64(len(part))
	qterms := queryTerms(q.Text)
	df := map[string]int{}
	for _, qt := range qterms {
		for _, ts := range part {
			if slices.Contains(ts, qt) {
				df[qt]++
			}
		}
	}
	var hits []lore.IndexHit
	for i, d := range partDocs {
		var score float64
		matched := false
		for _, qt := range qterms {
			tf := 0
			for _, t := range part[i] {
				if t == qt {
					tf++
				}
			}
			if tf == 0 {
				continue
			}
			matched = true
			idf := math.Log((n - float64(df[qt]) + 0.5) / (float64(df[qt]) + 0.5))
			if idf <= 0 {
				idf = 1e-6
			}
			score += idf * float64(tf) * 2.2 / (float64(tf) + 1.2*(0.25+0.75*float64(len(part[i]))/avgdl))
		}
		sc := d.Scope
		if !matched || !q.Scope.Contains(sc) || (len(q.Kinds) > 0 && !slices.Contains(q.Kinds, d.Kind)) ||
			(q.Since != nil && d.Time.Before(*q.Since)) || (q.Until != nil && !d.Time.Before(*q.Until)) {
			continue
		}
		hits = append(hits, lore.IndexHit{ID: d.ID, Kind: d.Kind, Score: score})
	}
	slices.SortFunc(hits, func(a, b lore.IndexHit) int {
		if a.Score != b.Score {
			return cmpDesc(a.Score, b.Score)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return hits[:min(len(hits), q.Limit)]
}
