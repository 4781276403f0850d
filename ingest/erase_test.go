package ingest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"

	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/index/weaviate"
)

// slowExtractor is the rules extractor behind a delay that ignores
// cancellation, as a model call in flight does: its reply arrives after
// the erase, and only the fence stands between it and the graph.
type slowExtractor struct {
	inner lore.Extractor

	mu       sync.Mutex
	inflight int
	entered  map[lore.Scope]int
}

func (x *slowExtractor) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	x.mu.Lock()
	x.inflight++
	x.entered[req.Scope]++
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		x.inflight--
		x.mu.Unlock()
	}()
	time.Sleep(time.Duration(5+rand.IntN(30)) * time.Millisecond)
	return x.inner.Extract(context.WithoutCancel(ctx), req)
}

func (x *slowExtractor) state(sc lore.Scope) (inflight, entered int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.inflight, x.entered[sc]
}

// runningIn reports whether s runs a job of the scope.
func (s *Service) runningIn(sc lore.Scope) bool {
	s.runningMu.Lock()
	defer s.runningMu.Unlock()
	for _, j := range s.running {
		if sc.Contains(j.scope) {
			return true
		}
	}
	return false
}

// TestEraseRace erases a user while their extraction jobs run, 50 times:
// in even trials through the Service whose workers run the jobs (which
// cancels them), in odd ones through another Service on the same store, as
// another process would (only the store's fence stops them). Nothing of the
// user may be readable afterwards, in the store or in the index, while
// another user's jobs of the same tenant complete.
func TestEraseRace(t *testing.T) {
	t.Run("embedded index", func(t *testing.T) {
		st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
		eraseRace(t, st, idx, nil, true)
	})
	// An index that cannot refuse a fenced write, as Weaviate, behind a
	// slow embedder, so that the erase often falls between a job's graph
	// writes and its index write: what it writes there must be taken back.
	t.Run("unfenced index", func(t *testing.T) {
		st, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
		eraseRace(t, st, unfencedIndex{idx}, slowEmbedder{hashEmbedder{name: "hash", dim: 32}}, true)
	})
	// Neo4j, whose erase runs in batches behind its recorded erasure, with
	// an index it cannot fence (the embedded one of another file, as
	// Weaviate would be).
	t.Run("neo4j", func(t *testing.T) {
		_, idx := openSQLite(t, filepath.Join(t.TempDir(), "lore.db"))
		eraseRace(t, openNeo4j(t), idx, nil, true)
	})
	// The production pair: Neo4j and Weaviate.
	t.Run("neo4j+weaviate", func(t *testing.T) {
		url := serverURL(t, "LORE_TEST_WEAVIATE_URL", "scripts/weaviate/start.sh")
		idx, err := weaviate.Open(context.Background(), weaviate.Config{URL: url})
		if err != nil {
			t.Fatalf("weaviate.Open: %v", err)
		}
		t.Cleanup(func() { idx.Close() })
		eraseRace(t, openNeo4j(t), idx, slowEmbedder{hashEmbedder{name: "hash", dim: 384}}, true)
	})
}

// serverURL is storetest.ServerURL (which this package's tests cannot
// import: storetest imports ingest).
func serverURL(t *testing.T, env, start string) string {
	url := os.Getenv(env)
	if url == "" {
		msg := env + " is not set; start the server with " + start
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (required under CI=true)")
		}
		t.Skip(msg)
	}
	return url
}

func openNeo4j(t *testing.T) lore.Store {
	url := serverURL(t, "LORE_TEST_NEO4J_URL", "scripts/neo4j/start.sh PORT")
	st, err := neo4j.Open(context.Background(), neo4j.Config{URL: url, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("neo4j.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// slowEmbedder delays every call, ignoring cancellation.
type slowEmbedder struct{ hashEmbedder }

func (e slowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	time.Sleep(time.Duration(2+rand.IntN(15)) * time.Millisecond)
	return e.hashEmbedder.Embed(ctx, texts)
}

// unfencedIndex writes whatever the fence says, as an index outside the
// store does.
type unfencedIndex struct{ lore.Index }

func (x unfencedIndex) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	if f, ok := lore.FenceFrom(ctx); ok {
		ctx = lore.WithFence(ctx, lore.Fence{Scope: f.Scope, Seq: math.MaxInt64})
	}
	return x.Index.Upsert(ctx, docs)
}

// eraseRace erases a user while their extraction jobs run, 50 times
// (LORE_ERASE_RACE_TRIALS sets another count, to hammer the race longer),
// and checks that nothing of theirs is left. With crossProcess, every other
// erase goes through a second Service, as another Lore process would.
func eraseRace(t *testing.T, st lore.Store, idx lore.Index, emb lore.Embedder, crossProcess bool) {
	ctx := context.Background()
	slow := &slowExtractor{inner: rules.New(), entered: map[lore.Scope]int{}}
	cfg := testConfig()
	cfg.Workers, cfg.PerTenantConcurrency = 4, 4
	workers := &Service{Store: st, Index: idx, Embedder: emb, Extractor: slow, Config: cfg, Logger: quietLogger()}
	other := &Service{Store: st, Index: idx, Embedder: emb, Extractor: slow, Config: cfg, Logger: quietLogger()}
	runWorkers(t, workers)

	trials := 50
	if v, err := strconv.Atoi(os.Getenv("LORE_ERASE_RACE_TRIALS")); err == nil && v > 0 {
		trials = v
	}
	run := uuid.NewString()
	var resurrected struct{ episodes, entities, facts, docs int }
	for trial := range trials {
		tenant := fmt.Sprintf("race-%s-%d", run, trial)
		alice := lore.Scope{TenantID: tenant, UserID: "alice"}
		bob := lore.Scope{TenantID: tenant, UserID: "bob"}
		var bobJobs []string
		for i := range 6 {
			for _, sc := range []lore.Scope{alice, bob} {
				if sc == bob && i >= 2 {
					continue
				}
				res, err := workers.Add(ctx, AddRequest{Scope: sc, Infer: true, Messages: []Message{
					{Role: "user", Content: fmt.Sprintf("I live in Paris and I work at Google. My sister Emma%d moved to Rome last week.", i)},
					{Role: "user", Content: fmt.Sprintf("My friend Quentin%d plays the cello.", i)},
				}})
				if err != nil {
					t.Fatalf("trial %d: Add: %v", trial, err)
				}
				if sc == bob {
					bobJobs = append(bobJobs, res.JobID)
				}
			}
		}
		// Erase once one of alice's jobs is extracting.
		deadline := time.Now().Add(10 * time.Second)
		for _, entered := slow.state(alice); entered == 0; _, entered = slow.state(alice) {
			if time.Now().After(deadline) {
				t.Fatalf("trial %d: no job of alice started", trial)
			}
			time.Sleep(time.Millisecond)
		}
		eraser := workers
		if crossProcess && trial%2 == 1 {
			eraser = other
		}
		if _, err := eraser.Erase(ctx, alice); err != nil {
			t.Fatalf("trial %d: Erase: %v", trial, err)
		}
		for _, id := range bobJobs {
			waitJob(t, st, tenant, id, lore.JobDone)
		}
		// Settled: no job of alice runs and no extraction is in flight,
		// twice in a row.
		for quiet := 0; quiet < 2; {
			inflight, _ := slow.state(alice)
			if inflight == 0 && !workers.runningIn(alice) {
				quiet++
			} else {
				quiet = 0
			}
			if time.Now().After(deadline) {
				t.Fatalf("trial %d: alice's jobs still run 10s on", trial)
			}
			time.Sleep(20 * time.Millisecond)
		}

		eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice})
		must(t, err)
		ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: alice})
		must(t, err)
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: alice, IncludeInvalidated: true})
		must(t, err)
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: alice, Text: "Paris Google Emma Rome Quentin cello sister friend", Limit: 100})
		must(t, err)
		resurrected.episodes += len(eps)
		resurrected.entities += len(ents)
		resurrected.facts += len(facts)
		resurrected.docs += len(hits)
		if len(eps)+len(ents)+len(facts)+len(hits) > 0 {
			t.Errorf("trial %d (erased through %s): %d episodes, %d entities, %d facts, %d index documents of alice visible after the erase, want none",
				trial, map[bool]string{true: "the workers' service", false: "another service"}[eraser == workers], len(eps), len(ents), len(facts), len(hits))
		}
		bobFacts, err := st.FindFacts(ctx, lore.FactFilter{Scope: bob})
		must(t, err)
		if len(bobFacts) == 0 {
			t.Errorf("trial %d: bob has no facts, want his jobs to complete beside the erase", trial)
		}
		if _, err := other.Erase(ctx, bob); err != nil {
			t.Fatalf("trial %d: Erase bob: %v", trial, err)
		}
	}
	t.Logf("%d erase races: resurrected %d episodes, %d entities, %d facts, %d index documents",
		trials, resurrected.episodes, resurrected.entities, resurrected.facts, resurrected.docs)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
