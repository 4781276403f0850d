package neo4j_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/neo4j"
)

// testScope returns a user scope in a fresh tenant and deletes it with the test.
func testScope(tb testing.TB, st *neo4j.Store) lore.Scope {
	tb.Helper()
	sc := lore.Scope{TenantID: "neo4j-test-" + uuid.NewString(), UserID: "alice"}
	tb.Cleanup(func() {
		if _, err := st.DeleteScope(context.Background(), sc); err != nil {
			tb.Errorf("cleanup DeleteScope: %v", err)
		}
	})
	return sc
}

func TestOpenUnreachableIsUnavailable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Port 1 on loopback refuses connections at once.
	_, err := neo4j.Open(ctx, neo4j.Config{URL: "bolt://127.0.0.1:1"})
	if got := lore.ErrorCode(err); got != lore.EUNAVAILABLE {
		t.Fatalf("Open(unreachable) code=%q (err=%v), want %q", got, err, lore.EUNAVAILABLE)
	}
}

func TestOpenRequiresURL(t *testing.T) {
	_, err := neo4j.Open(context.Background(), neo4j.Config{})
	if got := lore.ErrorCode(err); got != lore.EINVALID {
		t.Fatalf("Open without URL code=%q (err=%v), want %q", got, err, lore.EINVALID)
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	for i := range 2 {
		if err := st.Migrate(ctx); err != nil {
			t.Fatalf("Migrate #%d: %v", i+1, err)
		}
	}
}

// TestConcurrentMergeFactCreatesOne merges one statement from many
// goroutines at once: the dedup constraint must leave one fact counting
// every merge, whose history has one ADD and the rest MERGE.
func TestConcurrentMergeFactCreatesOne(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	sc := testScope(t, st)
	user, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Alice", Type: lore.UserEntityType})
	if err != nil {
		t.Fatalf("MergeEntity: %v", err)
	}
	const workers = 12
	var wg sync.WaitGroup
	events := make(chan lore.EventKind, workers)
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ev, err := st.MergeFact(ctx, &lore.Fact{
				Scope: sc, SubjectID: user.ID, Predicate: "lives_in", Object: "Lisbon", Text: "Alice lives in Lisbon",
				Confidence: 0.9, SourceEpisodeIDs: []string{uuid.NewString()},
			}, "test")
			if err != nil {
				errs <- err
				return
			}
			events <- ev
		}()
	}
	wg.Wait()
	close(events)
	close(errs)
	for err := range errs {
		t.Fatalf("MergeFact: %v", err)
	}
	adds := 0
	for ev := range events {
		if ev == lore.EventAdd {
			adds++
		}
	}
	if adds != 1 {
		t.Errorf("ADD events=%d, want 1", adds)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil {
		t.Fatalf("FindFacts: %v", err)
	}
	if len(facts) != 1 {
		t.Fatalf("len(facts)=%d, want 1", len(facts))
	}
	if facts[0].Count != workers || len(facts[0].SourceEpisodeIDs) != workers {
		t.Errorf("count=%d sources=%d, want %d and %d", facts[0].Count, len(facts[0].SourceEpisodeIDs), workers, workers)
	}
	hist, err := st.History(ctx, sc, facts[0].ID)
	if err != nil {
		t.Fatalf("History: %v", err)
	}
	if len(hist) != workers || hist[0].Event != lore.EventAdd {
		t.Errorf("history=%d events starting with %q, want %d starting with ADD", len(hist), hist[0].Event, workers)
	}
}

// TestConcurrentClaimJobClaimsEachOnce races many workers over a few due
// jobs: every job must be claimed exactly once.
func TestConcurrentClaimJobClaimsEachOnce(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	sc := testScope(t, st)
	// Jobs dated 1850 are due only to claims made "then", so jobs that other
	// tests leave on a shared server do not take part.
	t0 := time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(time.Now().UnixNano()%1e6) * time.Second)
	const jobs, workers = 6, 10
	want := map[string]bool{}
	for i := range jobs {
		j := &lore.Job{Scope: sc, Kind: "extract", Status: lore.JobQueued, MaxAttempts: 3,
			CreatedAt: t0.Add(time.Duration(i) * time.Second), NextRunAt: t0}
		if err := st.EnqueueJob(ctx, j); err != nil {
			t.Fatalf("EnqueueJob: %v", err)
		}
		want[j.ID] = true
	}
	var mu sync.Mutex
	claimed := map[string]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, err := st.ClaimJob(ctx, lore.ClaimRequest{Now: t0.Add(time.Minute), Lease: time.Hour})
				if lore.ErrorCode(err) == lore.ENOTFOUND {
					return
				}
				if err != nil {
					t.Errorf("ClaimJob: %v", err)
					return
				}
				mu.Lock()
				if want[j.ID] {
					claimed[j.ID]++
					if j.Attempts != 1 || j.Status != lore.JobRunning {
						t.Errorf("claimed job attempts=%d status=%q, want 1 and running", j.Attempts, j.Status)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for id := range want {
		if claimed[id] != 1 {
			t.Errorf("job %s claimed %d times, want 1", id, claimed[id])
		}
	}
}

// TestNeighborhoodAgentScopeStaysInside walks from an entity of one agent's
// namespace: facts of another agent of the same user must not appear.
func TestNeighborhoodAgentScopeStaysInside(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	tenant := "neo4j-test-" + uuid.NewString()
	a := lore.Scope{TenantID: tenant, AgentID: "planner"}
	b := lore.Scope{TenantID: tenant, AgentID: "critic"}
	for _, sc := range []lore.Scope{a, b} {
		t.Cleanup(func() { _, _ = st.DeleteScope(context.Background(), sc) })
	}
	mk := func(sc lore.Scope, name string) *lore.Entity {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: name, Type: "thing"})
		if err != nil {
			t.Fatalf("MergeEntity %s: %v", name, err)
		}
		return e
	}
	fact := func(sc lore.Scope, s, o *lore.Entity) {
		if _, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: s.ID, Predicate: "related_to", ObjectID: o.ID,
			Text: fmt.Sprintf("%s related to %s", s.Name, o.Name)}, "test"); err != nil {
			t.Fatalf("MergeFact: %v", err)
		}
	}
	x, y, z := mk(a, "X"), mk(a, "Y"), mk(a, "Z")
	fact(a, x, y)
	fact(a, y, z)
	bx, by := mk(b, "X"), mk(b, "Y")
	fact(b, bx, by)

	hits, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: a, SeedIDs: []string{x.ID, bx.ID}, MaxHops: 2})
	if err != nil {
		t.Fatalf("Neighborhood: %v", err)
	}
	var got []string
	for _, h := range hits {
		if h.Fact.Scope.AgentID != "planner" {
			t.Errorf("hit %q of agent %q, want only planner's", h.Fact.Text, h.Fact.Scope.AgentID)
		}
		got = append(got, fmt.Sprintf("%d:%s", h.Hops, h.Fact.Text))
	}
	want := []string{"1:X related to Y", "2:Y related to Z"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("hits=%v, want %v", got, want)
	}
}
