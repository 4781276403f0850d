package ingest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/index/weaviate"
)

// cuttingIndex passes writes to an index until its budget of writes is
// spent, then calls cut (which takes the index away: a flag, or a TCP
// link to the real server) and fails every write until restore.
type cuttingIndex struct {
	lore.Index
	cut, restore func()
	mu           sync.Mutex
	budget       int // writes left before the cut; < 0 for no cut
	down         bool
}

func (x *cuttingIndex) write(f func() error) error {
	x.mu.Lock()
	if !x.down && x.budget == 0 {
		x.down = true
		x.cut()
	}
	if x.budget > 0 {
		x.budget--
	}
	x.mu.Unlock()
	return f()
}

// cutAfter arms the cut after n more writes.
func (x *cuttingIndex) cutAfter(n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.budget = n
}

func (x *cuttingIndex) recover() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.down, x.budget = false, -1
	x.restore()
}

func (x *cuttingIndex) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	return x.write(func() error { return x.Index.Upsert(ctx, docs) })
}

func (x *cuttingIndex) Delete(ctx context.Context, sc lore.Scope, ids []string) error {
	return x.write(func() error { return x.Index.Delete(ctx, sc, ids) })
}

func (x *cuttingIndex) DeleteScope(ctx context.Context, sc lore.Scope) error {
	return x.write(func() error { return x.Index.DeleteScope(ctx, sc) })
}

// flagIndex fails every write while down, as an index that went away.
type flagIndex struct {
	lore.Index
	down *bool
	mu   *sync.Mutex
}

func (x flagIndex) err() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if *x.down {
		return lore.Errorf(lore.EUNAVAILABLE, "the index is cut off (test)")
	}
	return nil
}

func (x flagIndex) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	if err := x.err(); err != nil {
		return err
	}
	return x.Index.Upsert(ctx, docs)
}

func (x flagIndex) Delete(ctx context.Context, sc lore.Scope, ids []string) error {
	if err := x.err(); err != nil {
		return err
	}
	return x.Index.Delete(ctx, sc, ids)
}

func (x flagIndex) DeleteScope(ctx context.Context, sc lore.Scope) error {
	if err := x.err(); err != nil {
		return err
	}
	return x.Index.DeleteScope(ctx, sc)
}

// TestOutboxAfterIndexFault runs the fault-injection scenario on the
// embedded store: the index is cut in the middle of an add.
func TestOutboxAfterIndexFault(t *testing.T) {
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	var (
		mu   sync.Mutex
		down bool
	)
	flag := func(v bool) func() {
		return func() { mu.Lock(); down = v; mu.Unlock() }
	}
	runOutboxFault(t, st, idx, flagIndex{Index: idx, down: &down, mu: &mu}, flag(true), flag(false))
}

// TestOutboxAfterIndexFaultNeo4jWeaviate runs it on Neo4j + Weaviate, the
// index cut through a TCP relay in the middle of an add.
func TestOutboxAfterIndexFaultNeo4jWeaviate(t *testing.T) {
	neoURL := serverURL(t, "LORE_TEST_NEO4J_URL", "scripts/neo4j/start.sh PORT")
	weaviateURL := serverURL(t, "LORE_TEST_WEAVIATE_URL", "scripts/weaviate/start.sh")
	ctx := context.Background()
	st, err := neo4j.Open(ctx, neo4j.Config{URL: neoURL, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("neo4j.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	wvLink := newLink(t, hostPort(t, weaviateURL))
	idx, err := weaviate.Open(ctx, weaviate.Config{URL: "http://" + wvLink.addr()})
	if err != nil {
		t.Fatalf("weaviate.Open: %v", err)
	}
	t.Cleanup(func() { idx.Close() })
	// The doctor reads the index directly, not through the link.
	direct, err := weaviate.Open(ctx, weaviate.Config{URL: weaviateURL})
	if err != nil {
		t.Fatalf("weaviate.Open: %v", err)
	}
	t.Cleanup(func() { direct.Close() })
	runOutboxFault(t, st, direct, idx, wvLink.cut, wvLink.restore)
}

// runOutboxFault cuts the index in the middle of a sync add, then, with it
// still down, adds verbatim memories, edits a fact, deletes an episode and
// erases a user. The doctor finds store and index apart; once the index is
// back, one outbox drain makes them equal again (the doctor finds no
// difference) and the erased user's documents are gone, not resurrected.
// real is the index itself (for the doctor); faulty is what the service
// writes through before the cutting wrapper.
func runOutboxFault(t *testing.T, st lore.Store, real lore.Index, faulty lore.Index, cut, restore func()) {
	ctx := context.Background()
	ob, ok := st.(lore.Outbox)
	if !ok {
		t.Fatalf("%T is not a lore.Outbox", st)
	}
	tenant := "outbox-" + uuid.NewString()[:8]
	u1, u2 := lore.Scope{TenantID: tenant, UserID: "u1"}, lore.Scope{TenantID: tenant, UserID: "u2"}
	t.Cleanup(func() {
		_, _ = st.DeleteScope(context.Background(), lore.Scope{TenantID: tenant})
		_ = real.DeleteScope(context.Background(), lore.Scope{TenantID: tenant})
	})
	ci := &cuttingIndex{Index: faulty, cut: cut, restore: restore, budget: -1}
	emb := hashEmbedder{name: "hash", dim: 64}
	s := &Service{Store: st, Index: ci, Embedder: emb, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	doctor := &Service{Store: st, Index: real, Embedder: emb, Logger: quietLogger()}
	at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

	for _, sc := range []lore.Scope{u1, u2} {
		if _, err := s.Add(ctx, AddRequest{Scope: sc, Infer: true, Sync: true, Messages: msgs(at,
			"user", "I live in Paris and I work at Google.", "assistant", "Nice!", "user", "My sister Emma lives in Rome.")}); err != nil {
			t.Fatalf("add before the fault: %v", err)
		}
	}
	rep, err := doctor.Doctor(ctx, lore.Scope{TenantID: tenant}, DoctorOptions{Vectors: true})
	if err != nil {
		t.Fatalf("doctor before the fault: %v", err)
	}
	if len(rep.Differences) != 0 || rep.StoreDocs == 0 {
		t.Fatalf("before the fault: %d store docs, differences %v, want some docs and none", rep.StoreDocs, rep.Differences)
	}

	// The index goes away after one more write: the add's episodes are
	// indexed, its extraction's facts are not.
	ci.cutAfter(1)
	if _, err := s.Add(ctx, AddRequest{Scope: u1, Infer: true, Messages: msgs(at.Add(time.Hour), "user", "I adopted a cat named Miso.")}); err != nil {
		t.Fatalf("queued add: %v", err)
	}
	if _, err := s.Add(ctx, AddRequest{Scope: u1, Infer: true, Sync: true, Messages: msgs(at.Add(2*time.Hour), "user", "I moved to Lyon last week.")}); err == nil {
		t.Fatalf("sync add with the index cut mid-write succeeded; the cut did not happen")
	}
	if _, err := s.Add(ctx, AddRequest{Scope: u2, Messages: msgs(at.Add(time.Hour), "user", "Remember my locker code is 4512.")}); err != nil {
		t.Fatalf("verbatim add with the index down: %v", err)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: u1, Limit: 100})
	if err != nil || len(facts) == 0 {
		t.Fatalf("facts of u1: %d, %v", len(facts), err)
	}
	paris := ""
	for _, f := range facts {
		if f.Predicate == "works_at" {
			paris = f.ID
		}
	}
	if paris == "" {
		t.Fatalf("no works_at fact among %d", len(facts))
	}
	if _, err := s.ChangeFact(ctx, u1, paris, FactChange{Subject: ptr("user"), Predicate: ptr("works_at"), Object: ptr("Stripe")}); err != nil {
		t.Fatalf("change a fact with the index down: %v (the outbox should take the index write)", err)
	}
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: u1, Limit: 1})
	if err != nil || len(eps) == 0 {
		t.Fatalf("episodes of u1: %d, %v", len(eps), err)
	}
	if err := st.DeleteEpisode(Tagged(ctx), u1, eps[0].ID, "test"); err != nil {
		t.Fatalf("delete episode: %v", err)
	}
	// u3 is added and erased while the index is down: its documents are
	// all in the outbox and must never reach the index.
	u3 := lore.Scope{TenantID: tenant, UserID: "u3"}
	if _, err := s.Add(ctx, AddRequest{Scope: u3, Messages: msgs(at, "user", "My passport number is X123.")}); err != nil {
		t.Fatalf("add u3: %v", err)
	}
	if _, err := s.Erase(ctx, u3); err == nil {
		t.Fatalf("erase with the index down succeeded; want the index failure reported")
	}
	if _, err := s.Erase(ctx, u2); err == nil {
		t.Fatalf("erase with the index down succeeded; want the index failure reported")
	}

	pending, err := ob.PendingOutbox(ctx, tenant)
	if err != nil || pending == 0 {
		t.Fatalf("pending outbox entries with the index down: %d, %v; want some", pending, err)
	}
	rep, err = doctor.Doctor(ctx, lore.Scope{TenantID: tenant}, DoctorOptions{})
	if err != nil {
		t.Fatalf("doctor during the fault: %v", err)
	}
	if len(rep.Differences) == 0 {
		t.Fatalf("doctor found store and index equal with %d pending entries", pending)
	}
	t.Logf("during the fault: %d pending entries, %d differences (%d store docs, %d index docs)", pending, len(rep.Differences), rep.StoreDocs, rep.IndexDocs)

	// A worker that runs while the index is still down fails and backs
	// off without losing anything.
	w := &OutboxWorker{Service: s, Outbox: ob, TenantID: tenant}
	later := time.Now().Add(lore.OutboxGrace + time.Minute)
	if st, err := w.Drain(ctx, later); err == nil || st.Failed == 0 {
		t.Fatalf("drain with the index down: %+v, %v; want failures", st, err)
	}
	if n, _ := ob.PendingOutbox(ctx, tenant); n != pending {
		t.Fatalf("pending after failed drain = %d, want %d", n, pending)
	}

	ci.recover()
	stats, err := w.Drain(ctx, later.Add(time.Hour))
	if err != nil {
		t.Fatalf("drain after recovery: %+v, %v", stats, err)
	}
	if n, _ := ob.PendingOutbox(ctx, tenant); n != 0 {
		t.Fatalf("pending after recovery = %d, want 0", n)
	}
	rep, err = doctor.Doctor(ctx, lore.Scope{TenantID: tenant}, DoctorOptions{Vectors: true})
	if err != nil {
		t.Fatalf("doctor after recovery: %v", err)
	}
	if len(rep.Differences) != 0 {
		t.Fatalf("after recovery: differences %v, want none", rep.Differences)
	}
	for _, sc := range []lore.Scope{u2, u3} {
		hits, err := real.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "locker code passport number paris", Limit: 10})
		if err != nil || len(hits) != 0 {
			t.Fatalf("index documents of erased %s after recovery: %v, %v; want none", sc.UserID, hits, err)
		}
	}
	hits, err := real.SearchText(ctx, lore.IndexQuery{Scope: u1, Text: "Stripe", Kinds: []lore.DocKind{lore.KindFact}, Limit: 10})
	if err != nil || len(hits) == 0 {
		t.Fatalf("the edited fact is not found by its new text after recovery: %v, %v", hits, err)
	}
	t.Logf("recovery: %d entries applied; %d store docs = %d index docs", stats.Applied, rep.StoreDocs, rep.IndexDocs)
}

func ptr[T any](v T) *T { return &v }

// TestDoctorRepairs checks that the doctor finds a missing, a stale and an
// orphaned document, repairs them, and finds nothing after.
func TestDoctorRepairs(t *testing.T) {
	ctx := context.Background()
	st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
	s := &Service{Store: st, Index: idx, Embedder: hashEmbedder{name: "hash", dim: 64}, Extractor: rules.New(), Config: testConfig(), Logger: quietLogger()}
	u := lore.Scope{TenantID: "t", UserID: "u"}
	at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	if _, err := s.Add(ctx, AddRequest{Scope: u, Infer: true, Sync: true, Messages: msgs(at, "user", "I live in Paris.", "user", "I work at Google.")}); err != nil {
		t.Fatal(err)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: u, Limit: 10})
	if err != nil || len(facts) < 2 {
		t.Fatalf("facts: %d, %v", len(facts), err)
	}
	if err := idx.Delete(ctx, u, []string{facts[0].ID}); err != nil {
		t.Fatal(err)
	}
	stale := lore.IndexDoc{ID: facts[1].ID, Kind: lore.KindFact, Scope: facts[1].Scope, Text: "something else", Time: facts[1].LastSeen, Vector: make([]float32, 64)}
	stale.Vector[0] = 1
	orphan := lore.IndexDoc{ID: "gone", Kind: lore.KindFact, Scope: u, Text: "an orphan", Time: at, Vector: stale.Vector}
	if err := idx.Upsert(ctx, []lore.IndexDoc{stale, orphan}); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Doctor(ctx, u, DoctorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range rep.Differences {
		got[d.ID] = d.Problem
	}
	want := map[string]string{facts[0].ID: ProblemMissing, facts[1].ID: ProblemText, "gone": ProblemOrphan}
	for id, p := range want {
		if got[id] != p {
			t.Errorf("difference of %s = %q, want %q (all: %v)", id, got[id], p, rep.Differences)
		}
	}
	if len(got) != len(want) {
		t.Errorf("differences %v, want exactly %v", got, want)
	}
	if rep, err = s.Doctor(ctx, u, DoctorOptions{Repair: true}); err != nil || rep.Repaired != 3 {
		t.Fatalf("repair: repaired %d, %v; want 3", rep.Repaired, err)
	}
	if rep, err = s.Doctor(ctx, u, DoctorOptions{Vectors: true}); err != nil || len(rep.Differences) != 0 {
		t.Fatalf("after repair: %v, %v; want no difference", rep.Differences, err)
	}
}
