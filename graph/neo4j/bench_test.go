package neo4j_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/storetest"
)

// benchGraph is one user's graph of benchEntities entities and benchFacts
// facts: every entity is the subject of benchFacts/benchEntities facts,
// each with its own predicate, about other entities.
type benchGraph struct {
	scope    lore.Scope
	entities []*lore.Entity
	user     *lore.Entity
}

const (
	benchEntities = 1000
	benchFacts    = 10000
	benchWorkers  = 8
)

// buildBenchGraph fills a fresh scope with the benchmark graph, with
// benchWorkers writers at once, and deletes it when the benchmark ends.
func buildBenchGraph(b *testing.B, st *neo4j.Store) *benchGraph {
	b.Helper()
	ctx := context.Background()
	g := &benchGraph{scope: lore.Scope{TenantID: "neo4j-bench-" + uuid.NewString(), UserID: "alice"}}
	b.Cleanup(func() {
		if _, err := st.DeleteScope(context.Background(), g.scope); err != nil {
			b.Errorf("cleanup DeleteScope: %v", err)
		}
	})
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var err error
	if g.user, err = st.MergeEntity(ctx, &lore.Entity{Scope: g.scope, Name: "Alice", Type: lore.UserEntityType}); err != nil {
		b.Fatalf("MergeEntity: %v", err)
	}
	g.entities = make([]*lore.Entity, benchEntities)
	parallel(b, benchEntities, func(i int) error {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: g.scope, Name: fmt.Sprintf("entity %d", i), Type: "thing",
			FirstSeen: base, LastSeen: base})
		g.entities[i] = e
		return err
	})
	parallel(b, benchFacts, func(i int) error {
		f := g.fact(i)
		f.FirstSeen, f.LastSeen = base.Add(time.Duration(i)*time.Minute), base.Add(time.Duration(i)*time.Minute)
		_, _, err := st.MergeFact(ctx, f, "bench")
		return err
	})
	return g
}

// fact returns the i-th fact of the graph: subject i mod benchEntities, the
// predicate picked by i / benchEntities, so every i names another triple.
func (g *benchGraph) fact(i int) *lore.Fact {
	subj := g.entities[i%benchEntities]
	obj := g.entities[(i*7+13)%benchEntities]
	predicates := [...]string{"likes", "knows", "visited", "works_with", "owns", "reads", "plays", "met", "recommends", "studies"}
	pred := predicates[(i/benchEntities)%len(predicates)]
	return &lore.Fact{Scope: g.scope, SubjectID: subj.ID, Subject: subj.Name, Predicate: pred, ObjectID: obj.ID,
		Object: obj.Name, Text: fmt.Sprintf("%s %s %s", subj.Name, pred, obj.Name), Confidence: 0.8}
}

// parallel runs fn(0..n-1) on benchWorkers goroutines and fails on the first error.
func parallel(b *testing.B, n int, fn func(i int) error) {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, benchWorkers)
	for range benchWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}

// BenchmarkGraph10k measures the hot paths on one user holding 10k facts:
// merging (new facts and repeats, from concurrent writers) and reading
// (FindFacts, entity lookup by name, one- and two-hop neighbourhoods).
func BenchmarkGraph10k(b *testing.B) {
	st := mustOpen(b)
	ctx := context.Background()
	g := buildBenchGraph(b, st)
	seed := g.entities[42]

	reads := []struct {
		name string
		fn   func() (int, error)
	}{
		{"FindFacts/Latest10", func() (int, error) {
			fs, err := st.FindFacts(ctx, lore.FactFilter{Scope: g.scope, Limit: 10})
			return len(fs), err
		}},
		{"FindFacts/BySubject", func() (int, error) {
			fs, err := st.FindFacts(ctx, lore.FactFilter{Scope: g.scope, SubjectID: seed.ID})
			return len(fs), err
		}},
		{"FindFacts/ByEntity", func() (int, error) {
			fs, err := st.FindFacts(ctx, lore.FactFilter{Scope: g.scope, EntityID: seed.ID})
			return len(fs), err
		}},
		{"FindEntities/ByName", func() (int, error) {
			es, err := st.FindEntities(ctx, lore.EntityFilter{Scope: g.scope, Names: []string{"Entity 42"}})
			return len(es), err
		}},
		{"Neighborhood/OneHop", func() (int, error) {
			hs, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: g.scope, SeedIDs: []string{seed.ID}, MaxHops: 1, Limit: 50})
			return len(hs), err
		}},
		{"Neighborhood/TwoHops", func() (int, error) {
			hs, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: g.scope, SeedIDs: []string{seed.ID}, MaxHops: 2, Limit: 200})
			return len(hs), err
		}},
	}
	for _, r := range reads {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				n, err := r.fn()
				if err != nil {
					b.Fatal(err)
				}
				if n == 0 {
					b.Fatalf("%s found nothing, want results", r.name)
				}
			}
		})
	}
	// Writes last, so the reads above ran on exactly benchFacts facts.
	b.Run("MergeFact/New", func(b *testing.B) {
		var n atomic.Int64
		b.SetParallelism(benchWorkers / 2) // benchWorkers writers on 2 CPUs, as concurrent ingestion has
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				i := n.Add(1)
				f := g.fact(int(i) % benchFacts)
				f.Predicate = fmt.Sprintf("bench_new_%d", i)
				if _, _, err := st.MergeFact(ctx, f, "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	b.Run("MergeFact/Repeat", func(b *testing.B) {
		var n atomic.Int64
		b.SetParallelism(benchWorkers / 2)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, _, err := st.MergeFact(ctx, g.fact(int(n.Add(1))%benchFacts), "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// BenchmarkSpeakers10k: storetest.BenchSpeakers on Neo4j.
func BenchmarkSpeakers10k(b *testing.B) {
	st := mustOpen(b)
	sc := lore.Scope{TenantID: "neo4j-bench-" + uuid.NewString(), UserID: "alice"}
	b.Cleanup(func() {
		if _, err := st.DeleteScope(context.Background(), sc); err != nil {
			b.Errorf("cleanup DeleteScope: %v", err)
		}
	})
	storetest.BenchSpeakers(b, st, sc)
}
