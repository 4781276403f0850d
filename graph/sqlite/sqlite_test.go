package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/storetest"
)

// mustOpen opens a store in a fresh temporary directory and closes it when
// the test ends.
func mustOpen(tb testing.TB) *sqlite.Store {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "lore.db"))
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return st
}

// mustIndex opens a store and returns its index view, closing both at the
// end of the test.
func mustIndex(tb testing.TB) *sqlite.Index {
	tb.Helper()
	idx := mustOpen(tb).Index()
	tb.Cleanup(func() {
		if err := idx.Close(); err != nil {
			tb.Errorf("Index.Close: %v", err)
		}
	})
	return idx
}

func TestStore(t *testing.T) {
	storetest.RunStore(t, "sqlite", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}

func TestKeys(t *testing.T) {
	storetest.RunKeys(t, "sqlite", func(tb testing.TB) lore.KeyStore { return mustOpen(tb) })
}

func TestIndex(t *testing.T) {
	storetest.RunIndex(t, "sqlite", func(tb testing.TB) lore.Index { return mustIndex(tb) })
}

func TestRetrieval(t *testing.T) {
	storetest.RunRetrieval(t, "sqlite", func(tb testing.TB) (lore.Store, lore.Index) {
		st := mustOpen(tb)
		idx := st.Index()
		tb.Cleanup(func() {
			if err := idx.Close(); err != nil {
				tb.Errorf("Index.Close: %v", err)
			}
		})
		return st, idx
	})
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lore.db")
	sc := lore.Scope{TenantID: "t", UserID: "alice"}

	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	ep := &lore.Episode{Scope: sc, Role: "user", Content: "I live in Lisbon", OccurredAt: time.Date(2024, 1, 2, 3, 4, 5, 6000, time.UTC)}
	if err := st.AddEpisodes(ctx, []*lore.Episode{ep}); err != nil {
		t.Fatalf("AddEpisodes: %v", err)
	}
	alice, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Alice", Type: lore.UserEntityType})
	if err != nil {
		t.Fatalf("MergeEntity: %v", err)
	}
	fact, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: alice.ID, Subject: "Alice", Predicate: "lives_in",
		Object: "Lisbon", Text: "Alice lives in Lisbon", SourceEpisodeIDs: []string{ep.ID}}, "test")
	if err != nil {
		t.Fatalf("MergeFact: %v", err)
	}
	idx := st.Index()
	vec := []float32{0.6, 0.8, 0}
	if err := idx.Upsert(ctx, []lore.IndexDoc{{ID: fact.ID, Kind: lore.KindFact, Scope: sc, Text: fact.Text, Vector: vec, Time: fact.LastSeen}}); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	if err := st.SetMeta(ctx, "embedder", "test/3"); err != nil {
		t.Fatalf("SetMeta: %v", err)
	}
	if err := idx.Close(); err != nil {
		t.Fatalf("Index.Close: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	st = mustReopen(t, path)
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	if err != nil || len(eps) != 1 || eps[0].Content != ep.Content || !eps[0].OccurredAt.Equal(ep.OccurredAt) {
		t.Fatalf("episodes after reopen=%+v err=%v, want the stored episode", eps, err)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil || len(facts) != 1 || facts[0].ID != fact.ID || len(facts[0].SourceEpisodeIDs) != 1 {
		t.Fatalf("facts after reopen=%+v err=%v, want the stored fact with its source", facts, err)
	}
	if v, err := st.GetMeta(ctx, "embedder"); err != nil || v != "test/3" {
		t.Fatalf("GetMeta after reopen=%q err=%v, want test/3", v, err)
	}
	hist, err := st.History(ctx, sc, fact.ID)
	if err != nil || len(hist) != 1 {
		t.Fatalf("history after reopen=%+v err=%v, want the ADD event", hist, err)
	}
	idx = st.Index()
	defer idx.Close()
	th, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "Lisbon", Limit: 5})
	if err != nil || len(th) != 1 || th[0].ID != fact.ID {
		t.Fatalf("SearchText after reopen=%+v err=%v, want the fact", th, err)
	}
	vh, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: vec, Limit: 5})
	if err != nil || len(vh) != 1 || vh[0].ID != fact.ID {
		t.Fatalf("SearchVector after reopen=%+v err=%v, want the fact", vh, err)
	}
}

// mustReopen opens an existing database file and closes it at the end.
func mustReopen(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestIndexViewOutlivesStoreClose(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	idx := st.Index()
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	if err := idx.Upsert(ctx, []lore.IndexDoc{{ID: "d1", Kind: lore.KindEpisode, Scope: sc, Text: "still open"}}); err != nil {
		t.Fatalf("Upsert after Store.Close: %v, want the view to keep the database open", err)
	}
	if err := idx.Close(); err != nil {
		t.Fatalf("Index.Close: %v", err)
	}
	if _, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "open"}); err == nil {
		t.Fatalf("SearchText after every Close succeeded, want an error from the closed database")
	}
}

func TestConcurrentWriters(t *testing.T) {
	st := mustOpen(t)
	idx := st.Index()
	defer idx.Close()
	ctx := context.Background()
	sc := lore.Scope{TenantID: "t", UserID: "alice"}
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				subj, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Alice"})
				if err != nil {
					errs <- err
					return
				}
				obj := fmt.Sprintf("thing %d", i)
				f, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: subj.ID, Subject: "Alice", Predicate: "likes",
					Object: obj, Text: "Alice likes " + obj, SourceEpisodeIDs: []string{fmt.Sprintf("ep-%d", w)}}, "test")
				if err != nil {
					errs <- err
					return
				}
				if err := idx.Upsert(ctx, []lore.IndexDoc{{ID: f.ID, Kind: lore.KindFact, Scope: sc, Text: f.Text, Vector: []float32{1, float32(i)}}}); err != nil {
					errs <- err
					return
				}
				if _, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, Limit: 5}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent write: %v", err)
	}
	ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
	if err != nil || len(ents) != 1 || ents[0].Mentions != writers*each {
		t.Fatalf("entities=%+v err=%v, want one with %d mentions", ents, err, writers*each)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil || len(facts) != each {
		t.Fatalf("len(facts)=%d err=%v, want %d", len(facts), err, each)
	}
	for _, f := range facts {
		if f.Count != writers || len(f.SourceEpisodeIDs) != writers {
			t.Errorf("fact %q count=%d sources=%d, want %d and %d", f.Text, f.Count, len(f.SourceEpisodeIDs), writers, writers)
		}
	}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "likes", Limit: 1000})
	if err != nil || len(hits) != each {
		t.Fatalf("len(text hits)=%d err=%v, want %d", len(hits), err, each)
	}
}

func TestOpenRejectsBadPath(t *testing.T) {
	for _, path := range []string{"", "lore.db?mode=memory", filepath.Join(t.TempDir(), "missing-dir", "lore.db")} {
		if st, err := sqlite.Open(context.Background(), path); err == nil {
			st.Close()
			t.Errorf("Open(%q) succeeded, want an error", path)
		}
	}
}

func TestDirectory(t *testing.T) {
	storetest.RunDirectory(t, "sqlite", func(tb testing.TB) storetest.DirectoryStore { return mustOpen(tb) })
}

func TestProfile(t *testing.T) {
	storetest.RunProfile(t, "sqlite", func(tb testing.TB) storetest.ProfileBackend { return mustOpen(tb) })
}

func TestQueryLog(t *testing.T) {
	storetest.RunQueryLog(t, "sqlite", func(tb testing.TB) storetest.QueryLogBackend { return mustOpen(tb) })
}

func TestFeedback(t *testing.T) {
	storetest.RunFeedback(t, "sqlite", func(tb testing.TB) storetest.FeedbackBackend { return mustOpen(tb) })
}

func TestOutbox(t *testing.T) {
	storetest.RunOutbox(t, "sqlite", func(tb testing.TB) storetest.OutboxStore { return mustOpen(tb) })
	storetest.RunIndexLister(t, "sqlite", func(tb testing.TB) lore.Index { return mustIndex(tb) })
}
