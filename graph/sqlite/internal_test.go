package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

func TestDurabilitySettings(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	cases := []struct {
		name, pragma, want string
	}{
		{"writer journal", "journal_mode", "wal"},
		{"writer sync is FULL", "synchronous", "2"},
		{"writer foreign keys", "foreign_keys", "1"},
		{"schema version", "user_version", strconv.Itoa(latestVersion(t))},
	}
	for _, c := range cases {
		var got string
		if err := st.w.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got != c.want {
			t.Errorf("%s: PRAGMA %s=%q, want %q", c.name, c.pragma, got, c.want)
		}
	}
	var ro string
	if err := st.r.QueryRowContext(ctx, "PRAGMA query_only").Scan(&ro); err != nil || ro != "1" {
		t.Errorf("reader query_only=%q err=%v, want 1", ro, err)
	}
	if _, err := st.r.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES ('x', 'y')"); err == nil {
		t.Errorf("write through the read pool succeeded, want it refused")
	}
}

func TestDatabaseFilesAreOwnerOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	if err := st.SetMeta(ctx, "k", "v"); err != nil {
		t.Fatalf("SetMeta: %v", err)
	}
	for _, name := range []string{path, path + "-wal"} {
		info, err := os.Stat(name)
		if err != nil {
			t.Fatalf("stat %s: %v", name, err)
		}
		if mode := info.Mode().Perm(); mode != 0o600 {
			t.Errorf("%s mode=%v, want -rw-------", filepath.Base(name), mode)
		}
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	for i := range 2 {
		st, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		var v int
		if err := st.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != latestVersion(t) {
			t.Errorf("open %d: user_version=%d err=%v, want %d", i, v, err, latestVersion(t))
		}
		if err := st.Close(); err != nil {
			t.Fatalf("Close %d: %v", i, err)
		}
	}
}

func TestMatchTerms(t *testing.T) {
	long := strings.Repeat("word ", 10) + strings.Join(strings.Fields(strings.Repeat("a1 b2 c3 d4 e5 f6 g7 h8 ", 1)), " ")
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"plain", "Where does Alice live?", []string{"alice", "live"}},
		{"fts syntax is just words", `"cat" AND (dog* OR NEAR(x, 2)) col:val ^start`, []string{"cat", "dog", "near", "x", "2", "col", "val", "start"}},
		{"only stopwords kept", "who is it", []string{"who", "is", "it"}},
		{"duplicates removed", "tea Tea TEA coffee", []string{"tea", "coffee"}},
		{"unicode", "Café 東京 Zürich", []string{"café", "東京", "zürich"}},
		{"apostrophe splits as the tokenizer does", "Alice's", []string{"alice", "s"}},
		{"nothing", `"*():^-+ `, nil},
		{"empty", "", nil},
		{"duplicates do not count toward the cap", long, []string{"word", "a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}},
	}
	for _, c := range cases {
		got := matchTerms(c.text)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: matchTerms(%q)=%q, want %q", c.name, c.text, got, c.want)
		}
	}
	var many []string
	for i := range 100 {
		many = append(many, "w"+strconv.Itoa(i))
	}
	if got := matchTerms(strings.Join(many, " ")); len(got) != maxQueryTerms {
		t.Errorf("len(matchTerms(100 distinct words))=%d, want the cap %d", len(got), maxQueryTerms)
	}
}

func TestSearchTextStems(t *testing.T) {
	ctx := context.Background()
	_, idx := openIndex(t)
	sc := testScope()
	if err := idx.Upsert(ctx, docsOf(sc, "We went running along the rivers", "Dinner was lovely", "Coffee at the Café Crème")); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	cases := []struct {
		query string
		want  int
	}{
		{"runs", 1}, {"river", 1}, {"dinners", 1}, {"lovelier", 0}, {"walking", 0},
		{"cafe", 1}, {"CAFÉ", 1}, {"cafés", 1}, {"cremes", 1}, {"cre\u0300me", 1}, {"caff", 0},
	}
	for _, c := range cases {
		hits, err := idx.SearchText(ctx, queryOf(sc, c.query))
		if err != nil {
			t.Fatalf("SearchText(%q): %v", c.query, err)
		}
		if len(hits) != c.want {
			t.Errorf("SearchText(%q)=%d hits, want %d", c.query, len(hits), c.want)
		}
	}
}

func TestMigrateUpgradesOlderSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	if err := createAt(t, path, 1).Close(); err != nil {
		t.Fatalf("close version 1 file: %v", err)
	}
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer st.Close()
	var n int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema
		WHERE name IN ('entities_user_name', 'entity_aliases_user', 'episodes_run', 'doc_terms', 'part_stats')`).Scan(&n); err != nil || n != 5 {
		t.Errorf("indexes and tables of migrations 2 to 4 after reopen=%d err=%v, want 5", n, err)
	}
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name LIKE 'docs_fts%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("FTS5 tables after reopen=%d err=%v, want none", n, err)
	}
	var v int
	if err := st.r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != latestVersion(t) {
		t.Errorf("user_version=%d err=%v, want %d", v, err, latestVersion(t))
	}
}

// latestVersion returns the number of the newest embedded migration, the
// user_version of a database Open has migrated.
func latestVersion(tb testing.TB) int {
	tb.Helper()
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil || len(entries) == 0 {
		tb.Fatalf("read migrations: %d files, err %v", len(entries), err)
	}
	last := entries[len(entries)-1].Name() // ReadDir sorts by name
	v, err := strconv.Atoi(strings.SplitN(last, "_", 2)[0])
	if err != nil {
		tb.Fatalf("migration %s: %v", last, err)
	}
	return v
}

// createAt creates a database file at path with the schema of migrations 1
// to version, as the Lore of that version left it, and returns its
// connection for the caller to close.
func createAt(tb testing.TB, path string, version int) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(1)&_txlock=immediate")
	if err != nil {
		tb.Fatalf("open %s: %v", path, err)
	}
	db.SetMaxOpenConns(1)
	if err := (&Store{w: db}).migrate(context.Background(), version); err != nil {
		db.Close()
		tb.Fatalf("migrate to version %d: %v", version, err)
	}
	return db
}

func TestVectorCacheEvictsLeastRecentlySearched(t *testing.T) {
	ctx := context.Background()
	st, idx := openIndex(t)
	users := []string{"u1", "u2", "u3"}
	vec := []float32{1, 0, 0, 0}
	for _, u := range users {
		sc := lore.Scope{TenantID: "t", UserID: u}
		docs := []lore.IndexDoc{
			{ID: u + "-a", Kind: lore.KindFact, Scope: sc, Text: "a", Vector: vec},
			{ID: u + "-b", Kind: lore.KindFact, Scope: sc, Text: "b", Vector: []float32{0, 1, 0, 0}},
		}
		if err := idx.Upsert(ctx, docs); err != nil {
			t.Fatalf("Upsert: %v", err)
		}
	}
	// Two documents of 4 dimensions take 2×(4×5+vecDocOverhead) bytes and
	// their set vecSetOverhead: room for two sets.
	st.SetVectorCacheBytes(2 * (2*(4*5+vecDocOverhead) + vecSetOverhead))
	search := func(u string) {
		t.Helper()
		hits, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: lore.Scope{TenantID: "t", UserID: u}, Vector: vec, Limit: 5})
		if err != nil || len(hits) != 2 || hits[0].ID != u+"-a" {
			t.Fatalf("SearchVector(%s)=%+v err=%v, want %s-a first of 2", u, hits, err, u)
		}
	}
	cached := func() []string {
		st.vectors.mu.Lock()
		defer st.vectors.mu.Unlock()
		var out []string
		for k := range st.vectors.sets {
			out = append(out, k.user)
		}
		slices.Sort(out)
		return out
	}
	search("u1")
	search("u2")
	search("u1") // u2 is now the least recently searched
	search("u3")
	if got, want := cached(), []string{"u1", "u3"}; !slices.Equal(got, want) {
		t.Errorf("cached sets=%v, want %v", got, want)
	}
	search("u2") // reloads, evicting u1
	if got, want := cached(), []string{"u2", "u3"}; !slices.Equal(got, want) {
		t.Errorf("cached sets=%v, want %v", got, want)
	}
	st.SetVectorCacheBytes(0)
	if got := cached(); len(got) != 0 {
		t.Errorf("cached sets with a zero bound=%v, want none", got)
	}
	search("u1")
	if got, want := cached(), []string{"u1"}; !slices.Equal(got, want) {
		t.Errorf("cached sets=%v, want the one in use %v", got, want)
	}
}

func TestSearchVectorIsExact(t *testing.T) {
	ctx := context.Background()
	st, idx := openIndex(t)
	sc := testScope()
	r := rand.New(rand.NewPCG(1, 2))
	const dim = 384
	randomVec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	// Random documents, and clusters of near-duplicates whose cosines differ
	// by less than the int8 quantization error, so that only the exact
	// rescoring can order them.
	var docs []lore.IndexDoc
	for i := range 2000 {
		v := randomVec()
		if i%10 == 0 && i > 0 {
			base := docs[i-1].Vector
			v = make([]float32, dim)
			for j := range v {
				v[j] = base[j] + float32(r.NormFloat64()*0.01)
			}
		}
		docs = append(docs, lore.IndexDoc{ID: "d" + strconv.Itoa(i), Kind: lore.KindFact, Scope: sc, Text: "x", Vector: v})
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	units := make([][]float32, len(docs))
	for i, d := range docs {
		units[i] = unitVector(d.Vector)
	}
	for _, parallel := range []int{1 << 30, 100} {
		st.parallelScan = parallel
		for qn := range 20 {
			query := randomVec()
			if qn%2 == 0 {
				// Close to a cluster, where near-ties are.
				query = slices.Clone(docs[qn*10+9].Vector)
				query[0] += 0.05
			}
			const k = 10
			want := make([]lore.IndexHit, len(docs))
			qu := unitVector(query)
			for i, d := range docs {
				want[i] = lore.IndexHit{ID: d.ID, Kind: d.Kind, Score: dot(qu, units[i])}
			}
			slices.SortFunc(want, func(a, b lore.IndexHit) int {
				if a.Score != b.Score {
					return cmpDesc(a.Score, b.Score)
				}
				return strings.Compare(a.ID, b.ID)
			})
			got, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: query, Limit: k})
			if err != nil {
				t.Fatalf("SearchVector: %v", err)
			}
			if !slices.Equal(got, want[:k]) {
				t.Fatalf("parallel threshold %d, query %d: got %v, want exact %v", parallel, qn, got, want[:k])
			}
		}
	}
}

func TestWriteLoadsItsUsersVectorSet(t *testing.T) {
	ctx := context.Background()
	st, idx := openIndex(t)
	sc := lore.Scope{TenantID: "t", UserID: "u1", AgentID: "a1"}
	if err := idx.Upsert(ctx, []lore.IndexDoc{
		{ID: "old", Kind: lore.KindFact, Scope: sc, Text: "old", Vector: []float32{1, 0}},
	}); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	// As after a restart: nothing cached, one document stored.
	st.SetVectorCacheBytes(0)
	st.SetVectorCacheBytes(DefaultVectorCacheBytes)
	if err := idx.Upsert(ctx, []lore.IndexDoc{
		{ID: "new", Kind: lore.KindFact, Scope: sc, Text: "new", Vector: []float32{0, 1}},
	}); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	st.vectors.mu.Lock()
	user := st.vectors.sets[vecKey{tenant: "t", user: "u1"}]
	_, agentCached := st.vectors.sets[vecKey{tenant: "t", agent: "a1"}]
	st.vectors.mu.Unlock()
	if user == nil || !user.loaded || len(user.docs) != 2 {
		t.Fatalf("user set after a write=%+v, want loaded with the stored and the new document", user)
	}
	if agentCached {
		t.Errorf("agent set cached after a write, want it left to its first search")
	}
}

// TestMigration8RepostsAgentPartitions: a file from before migration 8
// posted a user's document that carries an agent under the agent's
// partition too; after the migration the agent's partition holds only the
// agent's own documents, in postings and statistics.
func TestMigration8RepostsAgentPartitions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	st, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	idx := st.Index()
	docs := []lore.IndexDoc{
		{ID: "users", Kind: lore.KindFact, Scope: lore.Scope{TenantID: "t", UserID: "u", AgentID: "a"}, Text: "secret diagnosis"},
		{ID: "own", Kind: lore.KindFact, Scope: lore.Scope{TenantID: "t", AgentID: "a"}, Text: "agent note"},
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	agentPart := vecKey{tenant: "t", agent: "a"}.part()
	// As Lore before migration 8 left it: the user's document posted under
	// the agent's partition as well.
	for _, q := range []string{
		`INSERT INTO doc_terms (part, term, seq, tf, len) SELECT ?, term, seq, tf, len FROM doc_terms WHERE seq = (SELECT seq FROM docs WHERE id = 'users')`,
		`UPDATE part_stats SET docs = docs + 1, tokens = tokens + 2 WHERE part = ?`,
	} {
		if _, err := st.w.ExecContext(ctx, q, agentPart); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Migration 8 runs again over them. (Rewinding user_version and
	// reopening would re-run every later migration too, and those need
	// not be idempotent.)
	if err := st.migrateOne(ctx, 8); err != nil {
		t.Fatalf("migration 8: %v", err)
	}
	idx.Close()
	st.Close()

	st, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer st.Close()
	var n, partDocs int
	if err := st.r.QueryRowContext(ctx, `SELECT count(*) FROM doc_terms WHERE part = ? AND seq = (SELECT seq FROM docs WHERE id = 'users')`, agentPart).Scan(&n); err != nil {
		t.Fatalf("count postings: %v", err)
	}
	if err := st.r.QueryRowContext(ctx, `SELECT docs FROM part_stats WHERE part = ?`, agentPart).Scan(&partDocs); err != nil {
		t.Fatalf("part stats: %v", err)
	}
	if n != 0 || partDocs != 1 {
		t.Errorf("agent partition after migration: %d postings of the user's document, %d documents; want 0 and 1", n, partDocs)
	}
	idx = st.Index()
	defer idx.Close()
	for _, c := range []struct {
		scope lore.Scope
		text  string
		want  int
	}{
		{lore.Scope{TenantID: "t", AgentID: "a"}, "secret", 0},
		{lore.Scope{TenantID: "t", AgentID: "a"}, "note", 1},
		{lore.Scope{TenantID: "t", UserID: "u"}, "secret", 1},
	} {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: c.scope, Text: c.text, Limit: 5})
		if err != nil || len(hits) != c.want {
			t.Errorf("SearchText(%+v, %q)=%v err=%v, want %d hits", c.scope, c.text, hits, err, c.want)
		}
	}
}

// migrateOne runs the body of migration num again, leaving user_version as
// it is.
func (s *Store) migrateOne(ctx context.Context, num int) error {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return err
	}
	prefix := fmt.Sprintf("%04d_", num)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			body, err := migrations.ReadFile("migrations/" + e.Name())
			if err != nil {
				return err
			}
			_, err = s.w.ExecContext(ctx, string(body))
			return err
		}
	}
	return fmt.Errorf("no migration %d", num)
}

// TestVectorCacheKeepsNoEmptySets: searches of users with no documents
// (new users, or any user id a client sends) leave nothing in the cache,
// so they cannot grow it without bound; a user who then writes is found.
func TestVectorCacheKeepsNoEmptySets(t *testing.T) {
	ctx := context.Background()
	st, idx := openIndex(t)
	vec := []float32{1, 0, 0, 0}
	for i := range 50 {
		sc := lore.Scope{TenantID: "t", UserID: fmt.Sprintf("nobody-%d", i)}
		hits, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: vec, Limit: 5})
		if err != nil || len(hits) != 0 {
			t.Fatalf("SearchVector(%s)=%v err=%v, want nothing", sc.UserID, hits, err)
		}
	}
	st.vectors.mu.Lock()
	n := len(st.vectors.sets)
	st.vectors.mu.Unlock()
	if n != 0 {
		t.Fatalf("%d cached sets after searching 50 users with no documents, want 0", n)
	}
	sc := lore.Scope{TenantID: "t", UserID: "nobody-3"}
	if err := idx.Upsert(ctx, []lore.IndexDoc{{ID: "d", Kind: lore.KindFact, Scope: sc, Text: "a", Vector: vec}}); err != nil {
		t.Fatal(err)
	}
	hits, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: vec, Limit: 5})
	if err != nil || len(hits) != 1 || hits[0].ID != "d" {
		t.Fatalf("SearchVector after a write=%v err=%v, want d", hits, err)
	}
}
