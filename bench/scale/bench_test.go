package scale_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench/scale"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/index/weaviate"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
	"github.com/lore-memory/lore/storetest"
)

// seed is the generator seed of every benchmark, so all backends get the
// same data.
const seed = 1

// backend is a store and index pair under benchmark.
type backend struct {
	name string
	// searchData returns a store and index holding spec's data and the
	// tenant it is under, loading it on first use; later runs reuse it.
	searchData func(b *testing.B, spec scale.Spec) (lore.Store, lore.Index, string)
	// fresh returns a store and index for write benchmarks, which write
	// into a new tenant of their own.
	fresh func(b *testing.B) (lore.Store, lore.Index)
	// embedded is true for the backend that also takes the largest
	// dataset.
	embedded bool
}

// cacheDir is where built SQLite databases are kept between runs:
// LORE_SCALE_CACHE, or a directory under the system's temporary directory.
func cacheDir(b *testing.B) string {
	dir := os.Getenv("LORE_SCALE_CACHE")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "lore-scale-cache")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatalf("cache dir: %v", err)
	}
	return dir
}

// sqliteBackend is the embedded backend. Search data comes from a database
// file built once per Spec and kept in cacheDir.
func sqliteBackend() backend {
	return backend{
		name:       "sqlite",
		searchData: openCachedSQLite,
		fresh: func(b *testing.B) (lore.Store, lore.Index) {
			return openSQLite(b, filepath.Join(b.TempDir(), "lore.db"))
		},
		embedded: true,
	}
}

// openSQLite opens a SQLite store and its index and closes both with b.
func openSQLite(b *testing.B, path string) (lore.Store, lore.Index) {
	b.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		b.Fatalf("sqlite.Open: %v", err)
	}
	idx := st.Index()
	b.Cleanup(func() {
		if err := idx.Close(); err != nil {
			b.Errorf("sqlite Index.Close: %v", err)
		}
		if err := st.Close(); err != nil {
			b.Errorf("sqlite Close: %v", err)
		}
	})
	return st, idx
}

// openCachedSQLite returns the SQLite store holding spec's data, building
// the file first if the cache lacks it. A build goes to a temporary name
// and is renamed when complete, so an interrupted build is never reused.
func openCachedSQLite(b *testing.B, spec scale.Spec) (lore.Store, lore.Index, string) {
	b.Helper()
	tenant := scale.TenantFor(spec, "sqlite")
	path := filepath.Join(cacheDir(b), "sqlite-"+spec.Key()+".db")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		tmp := filepath.Join(filepath.Dir(path), "building-"+uuid.NewString()+".db")
		st, err := sqlite.Open(context.Background(), tmp)
		if err != nil {
			b.Fatalf("sqlite.Open: %v", err)
		}
		idx := st.Index()
		build(b, st, idx, tenant, spec, 1) // SQLite has one writer; more only queue
		if err := errors.Join(idx.Close(), st.Close()); err != nil {
			b.Fatalf("close built database: %v", err)
		}
		for _, suffix := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(tmp + suffix); err == nil {
				if err := os.Rename(tmp+suffix, path+suffix); err != nil {
					b.Fatalf("cache: %v", err)
				}
			}
		}
		if err := os.Rename(tmp, path); err != nil {
			b.Fatalf("cache: %v", err)
		}
	} else if err != nil {
		b.Fatalf("cache: %v", err)
	}
	st, idx := openSQLite(b, path)
	return st, idx, tenant
}

// serverBackend is Neo4j + Weaviate on the servers named by
// LORE_TEST_NEO4J_URL and LORE_TEST_WEAVIATE_URL. Search data is loaded
// once per Spec into its own tenant and found again by a MetaStore key.
func serverBackend(b *testing.B) backend {
	b.Helper()
	st, idx := openServers(b)
	be := backend{name: "neo4j+weaviate"}
	be.searchData = func(b *testing.B, spec scale.Spec) (lore.Store, lore.Index, string) {
		ctx := context.Background()
		key := "scale:" + spec.Key()
		if tenant, err := st.GetMeta(ctx, key); err == nil && loaded(ctx, st, idx, tenant, spec) {
			return st, idx, tenant
		} else if err != nil && lore.ErrorCode(err) != lore.ENOTFOUND {
			b.Fatalf("GetMeta: %v", err)
		}
		tenant := scale.TenantFor(spec, uuid.NewString()[:8])
		build(b, st, idx, tenant, spec, 8) // as many writers as Neo4j's own benchmark uses
		if err := st.SetMeta(ctx, key, tenant); err != nil {
			b.Fatalf("SetMeta: %v", err)
		}
		return st, idx, tenant
	}
	be.fresh = func(*testing.B) (lore.Store, lore.Index) { return st, idx }
	return be
}

// loaded reports whether both servers still hold a built tenant's data: a
// restarted Neo4j starts empty, a restarted Weaviate keeps its data
// directory.
func loaded(ctx context.Context, st lore.Store, idx lore.Index, tenant string, spec scale.Spec) bool {
	u := spec.Generate(spec.Users - 1)
	sc := lore.Scope{TenantID: tenant, UserID: u.ID}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc, Limit: 1})
	if err != nil || len(facts) == 0 {
		return false
	}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: u.Facts[len(u.Facts)-1].Text, Limit: 1})
	return err == nil && len(hits) > 0
}

// openServers opens Neo4j and Weaviate, skipping the benchmark when either
// address is unset (failing under CI=true).
func openServers(b *testing.B) (lore.Store, lore.Index) {
	b.Helper()
	neoURL := storetest.ServerURL(b, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	wvURL := storetest.ServerURL(b, "LORE_TEST_WEAVIATE_URL", "start a server with `scripts/weaviate/install.sh && scripts/weaviate/start.sh` and export the LORE_TEST_WEAVIATE_URL it prints")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := neo4j.Open(ctx, neo4j.Config{URL: neoURL, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		b.Fatalf("neo4j.Open: %v", err)
	}
	idx, err := weaviate.Open(ctx, weaviate.Config{URL: wvURL})
	if err != nil {
		st.Close()
		b.Fatalf("weaviate.Open: %v", err)
	}
	b.Cleanup(func() {
		if err := errors.Join(idx.Close(), st.Close()); err != nil {
			b.Errorf("close servers: %v", err)
		}
	})
	return st, idx
}

// build loads every user of spec into tenant and logs how long it took.
func build(b *testing.B, st lore.Store, idx lore.Index, tenant string, spec scale.Spec, workers int) {
	b.Helper()
	ctx := context.Background()
	l := &scale.Loader{Store: st, Index: idx, Vector: storetest.HashVector, Tenant: tenant, Workers: workers}
	start := time.Now()
	total := 0
	for i := range spec.Users {
		n, err := l.LoadUser(ctx, spec.Generate(i))
		if err != nil {
			b.Fatalf("build %s user %d: %v", spec.Key(), i, err)
		}
		total += n
		if (i+1)%100 == 0 {
			b.Logf("build %s: %d/%d users, %d facts, %s", spec.Key(), i+1, spec.Users, total, time.Since(start).Round(time.Second))
		}
	}
	b.Logf("built %s: %d facts in %s (%.0f facts/s)", spec.Key(), total, time.Since(start).Round(time.Second), float64(total)/time.Since(start).Seconds())
}

// forBackends runs fn for each backend: the embedded one always,
// Neo4j + Weaviate inside a sub-benchmark that skips without servers.
func forBackends(b *testing.B, fn func(b *testing.B, be backend)) {
	b.Run("sqlite", func(b *testing.B) { fn(b, sqliteBackend()) })
	b.Run("neo4j+weaviate", func(b *testing.B) { fn(b, serverBackend(b)) })
}

// BenchmarkIngestFacts measures fact ingestion as extraction leaves it:
// MergeFact of new facts from ingest.DefaultConfig().Workers writers, then Index.Upsert of
// the facts and their turns with vectors, in one user's growing graph.
// One op is one fact.
func BenchmarkIngestFacts(b *testing.B) {
	forBackends(b, func(b *testing.B, be backend) {
		st, idx := be.fresh(b)
		ctx := context.Background()
		tenant := "scale-ingest-" + uuid.NewString()
		spec := scale.Spec{Users: 1, FactsPerUser: max(b.N, 100), Seed: seed}
		// As many writers as ingestion runs workers by default.
		l := &scale.Loader{Store: st, Index: idx, Vector: storetest.HashVector, Tenant: tenant, Workers: ingest.DefaultConfig().Workers}
		p, err := l.Prepare(ctx, spec.Generate(0))
		if err != nil {
			b.Fatal(err)
		}
		cleanup(b, st, idx, p.Scope)
		b.ResetTimer()
		n, err := l.LoadFacts(ctx, p, 0, b.N)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if n != b.N {
			b.Fatalf("stored %d facts, want %d", n, b.N)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "facts/s")
	})
}

// BenchmarkIngestMessages measures ingest.Service.Add with sync extraction
// by the rules extractor and the hashed embedder: store, extract, merge and
// index, ten messages per request, into one user's growing graph. One op
// is one message.
func BenchmarkIngestMessages(b *testing.B) {
	forBackends(b, func(b *testing.B, be backend) {
		st, idx := be.fresh(b)
		ctx := context.Background()
		sc := lore.Scope{TenantID: "scale-ingest-" + uuid.NewString(), UserID: "user-00000"}
		cleanup(b, st, idx, sc)
		svc := &ingest.Service{Store: st, Index: idx, Embedder: storetest.HashEmbedder{}, Extractor: rules.New(),
			Logger: slog.New(slog.DiscardHandler)}
		spec := scale.Spec{Users: 1, FactsPerUser: 1, Seed: seed}
		const perRequest = 10
		texts := spec.Messages(0, b.N)
		at := time.Date(2024, 6, 1, 9, 0, 0, 0, time.UTC)
		b.ResetTimer()
		for start := 0; start < b.N; start += perRequest {
			msgs := make([]ingest.Message, 0, perRequest)
			for k, text := range texts[start:min(start+perRequest, b.N)] {
				t := at.Add(time.Duration(start+k) * time.Minute)
				msgs = append(msgs, ingest.Message{Role: "user", Content: text, CreatedAt: &t})
			}
			if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Messages: msgs, Infer: true, Sync: true}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	})
}

// cleanup removes a write benchmark's scope from both stores when it ends.
func cleanup(b *testing.B, st lore.Store, idx lore.Index, sc lore.Scope) {
	b.Cleanup(func() {
		ctx := context.Background()
		if _, err := st.DeleteScope(ctx, sc); err != nil {
			b.Errorf("cleanup DeleteScope: %v", err)
		}
		if err := idx.DeleteScope(ctx, sc); err != nil {
			b.Errorf("cleanup index DeleteScope: %v", err)
		}
	})
}

// dataset is a Spec under a readable name; embeddedOnly ones are too large
// to load into the servers in a modest run.
type dataset struct {
	name         string
	spec         scale.Spec
	embeddedOnly bool
}

// million is the 1M-facts-over-10k-users case, run only with
// LORE_SCALE_1M=1: at the 404 facts/s BenchmarkIngestFacts measured on 2
// cores, building it takes about 40 minutes (once; the file is cached).
var million = dataset{"1M-facts-x-10k-users", scale.Spec{Users: 10_000, FactsPerUser: 100, Seed: seed}, true}

// BenchmarkSearch measures retrieve.Pipeline.Search latency, p50 and p95,
// per backend and dataset, with the default pipeline without an embedder
// (BM25 + graph + entity expansion + temporal + context) and with the
// hashed embedder's fixed vectors (adding the dense signal). Queries are
// asked of random users of the dataset in a fixed order. LORE_SCALE_1M=1
// adds the 1M-facts case (embedded store only).
//
//	go test ./bench/scale -run '^$' -bench Search -benchtime 200x -timeout 2h
func BenchmarkSearch(b *testing.B) {
	datasets := []dataset{
		{"10k-facts-1-user", scale.Spec{Users: 1, FactsPerUser: 10_000, Seed: seed}, false},
		{"100-facts-x-1000-users", scale.Spec{Users: 1000, FactsPerUser: 100, Seed: seed}, false},
		{"100k-facts-1-user", scale.Spec{Users: 1, FactsPerUser: 100_000, Seed: seed}, true},
	}
	if os.Getenv("LORE_SCALE_1M") != "" {
		datasets = append(datasets, million)
	}
	forBackends(b, func(b *testing.B, be backend) {
		for _, ds := range datasets {
			b.Run(ds.name, func(b *testing.B) {
				if ds.embeddedOnly && !be.embedded {
					b.Skipf("%s is benchmarked on the embedded backend only", ds.name)
				}
				st, idx, tenant := be.searchData(b, ds.spec)
				queries := queriesOf(ds.spec, tenant)
				for _, mode := range []struct {
					name     string
					embedder lore.Embedder
				}{{"bm25+graph", nil}, {"bm25+graph+dense", storetest.HashEmbedder{}}} {
					b.Run(mode.name, func(b *testing.B) {
						p := &retrieve.Pipeline{Graph: st, Index: idx, Embedder: mode.embedder, Config: retrieve.DefaultConfig()}
						searchLatency(b, p, queries)
					})
				}
			})
		}
	})
}

// query is one search of one user.
type query struct {
	scope lore.Scope
	text  string
}

// queriesOf returns 500 queries spread over the users of spec: query i asks
// user i*7919 mod Users (a prime stride, so consecutive queries hit
// different users) its own generated question.
func queriesOf(spec scale.Spec, tenant string) []query {
	const n = 500
	users := map[int]scale.User{}
	out := make([]query, n)
	for i := range n {
		k := i * 7919 % spec.Users
		u, ok := users[k]
		if !ok {
			u = spec.Generate(k)
			users[k] = u
		}
		out[i] = query{lore.Scope{TenantID: tenant, UserID: u.ID}, u.Queries[i%len(u.Queries)]}
	}
	return out
}

// searchLatency runs searches under b.Loop and reports their p50 and p95 in
// ms. It fails if a search finds nothing: every query names entities of
// its user. With b.Loop the benchmark function runs once, so a benchmark
// that prepares much before it (BenchmarkANN's index build) pays for that
// once, not again for each b.N the testing package tries.
func searchLatency(b *testing.B, p *retrieve.Pipeline, queries []query) {
	ctx := context.Background()
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		q := queries[i%len(queries)]
		start := time.Now()
		resp, err := p.Search(ctx, retrieve.Request{Scope: q.scope, Query: q.text})
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatalf("Search(%q): %v", q.text, err)
		}
		if len(resp.Results) == 0 {
			b.Fatalf("Search(%q) in %s found nothing, want the user's facts", q.text, q.scope.UserID)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(ms(percentile(lat, 0.50)), "p50-ms")
	b.ReportMetric(ms(percentile(lat, 0.95)), "p95-ms")
}

// percentile returns the p-quantile of sorted durations (nearest rank).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// TestPercentile checks the nearest-rank percentile the benchmarks report.
func TestPercentile(t *testing.T) {
	d := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n)
		}
		return out
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 0.5, 0},
		{"one", d(7), 0.95, 7},
		{"median of ten", d(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.5, 5},
		{"p95 of twenty", d(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), 0.95, 19},
		{"p95 of ten rounds up", d(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), 0.95, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := percentile(tt.sorted, tt.p); got != tt.want {
				t.Errorf("percentile(%v, %v)=%v, want %v", tt.sorted, tt.p, got, tt.want)
			}
		})
	}
}

// Example of what one dataset looks like, for the docs.
func ExampleSpec_Generate() {
	u := scale.Spec{Users: 1, FactsPerUser: 4, Seed: seed}.Generate(0)
	fmt.Println(len(u.Facts), len(u.Episodes), len(u.Queries))
	// Output: 4 2 20
}
