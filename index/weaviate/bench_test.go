package weaviate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
)

// benchDim is the dimension of the built-in MiniLM embedder's vectors.
const benchDim = 384

// benchWords is the vocabulary of the synthetic corpus. Words are drawn with
// a Zipf distribution, so a few are in most documents and most are rare, as
// in real text.
var benchWords = strings.Fields(`alice bob carol dave erin frank grace heidi ivan judy
	paris london berlin tokyo kyoto oslo rome lisbon madrid vienna
	dog cat horse parrot hamster goldfish rabbit turtle
	pizza sushi pasta curry salad ramen tacos paella risotto dumplings
	tennis chess hiking climbing cycling rowing skiing painting piano guitar
	works lives likes visited bought married adopted studies teaches plays
	monday tuesday wednesday thursday friday saturday sunday morning evening night
	doctor teacher engineer nurse lawyer chef pilot artist writer farmer
	garden kitchen office school museum library station airport beach mountain
	red blue green yellow purple orange black white silver golden`)

// benchCorpus returns n documents of one scope with deterministic text,
// times and unit vectors.
func benchCorpus(r *rand.Rand, sc lore.Scope, n int) []lore.IndexDoc {
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(benchWords)-1))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	docs := make([]lore.IndexDoc, n)
	for i := range docs {
		words := make([]string, 8+r.IntN(12))
		for j := range words {
			words[j] = benchWords[zipf.Uint64()]
		}
		kind := lore.KindFact
		if i%3 == 0 {
			kind = lore.KindEpisode
		}
		docs[i] = lore.IndexDoc{
			ID: uuid.NewString(), Kind: kind, Scope: sc,
			Text:   strings.Join(words, " "),
			Vector: benchVector(r),
			Time:   base.Add(time.Duration(i) * time.Minute),
		}
	}
	return docs
}

func benchVector(r *rand.Rand) []float32 {
	v := make([]float32, benchDim)
	var norm float64
	for i := range v {
		x := r.NormFloat64()
		v[i] = float32(x)
		norm += x * x
	}
	norm = math.Sqrt(norm)
	for i := range v {
		v[i] = float32(float64(v[i]) / norm)
	}
	return v
}

// reportLatencies reports the median and 95th percentile of per-operation
// latencies in milliseconds.
func reportLatencies(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(lat)))) - 1
		return float64(lat[max(i, 0)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

// BenchmarkUpsert measures import throughput of new documents in batches of
// 100, as ingestion sends them: with 384-dimensional vectors, text only (no
// embedder configured), and with vectors from four concurrent writers (the
// ingestion worker pool).
func BenchmarkUpsert(b *testing.B) {
	idx := mustOpen(b)
	const batch = 100
	for _, bc := range []struct {
		name        string
		withVectors bool
		writers     int
	}{
		{"vectors", true, 1},
		{"text-only", false, 1},
		{"vectors/4-writers", true, 4},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			tenant := "wvbench-" + uuid.NewString()
			dropTenantAfter(b, idx, tenant)
			sc := lore.Scope{TenantID: tenant, UserID: "u"}
			// Documents are made before the clock starts: a pool large
			// enough that every iteration inserts new ids.
			pool := benchCorpus(rand.New(rand.NewPCG(1, 2)), sc, batch*max(b.N, 1))
			if !bc.withVectors {
				for i := range pool {
					pool[i].Vector = nil
				}
			}
			work := make(chan int)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for range bc.writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for off := range work {
						if err := idx.Upsert(ctx, pool[off:off+batch]); err != nil {
							b.Errorf("Upsert: %v", err)
						}
					}
				}()
			}
			for i := range b.N {
				work <- i * batch
			}
			close(work)
			wg.Wait()
			b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "docs/s")
		})
	}
}

// BenchmarkSearch10k measures search latency over 10,000 documents in one
// scope (a user with 10k memories), one query per iteration, both kinds.
func BenchmarkSearch10k(b *testing.B) {
	idx := mustOpen(b)
	ctx := context.Background()
	tenant := "wvbench-" + uuid.NewString()
	dropTenantAfter(b, idx, tenant)
	sc := lore.Scope{TenantID: tenant, UserID: "u"}
	r := rand.New(rand.NewPCG(3, 4))
	docs := benchCorpus(r, sc, 10000)
	for start := 0; start < len(docs); start += 500 {
		if err := idx.Upsert(ctx, docs[start:min(start+500, len(docs))]); err != nil {
			b.Fatalf("Upsert: %v", err)
		}
	}
	queries := make([]lore.IndexQuery, 64)
	for i := range queries {
		words := []string{benchWords[r.IntN(len(benchWords))], benchWords[r.IntN(len(benchWords))], benchWords[r.IntN(len(benchWords))]}
		queries[i] = lore.IndexQuery{Scope: sc, Text: strings.Join(words, " "), Vector: benchVector(r), Limit: 30}
	}
	run := func(b *testing.B, search func(context.Context, lore.IndexQuery) ([]lore.IndexHit, error)) {
		lat := make([]time.Duration, 0, 1024)
		for i := 0; b.Loop(); i++ {
			t0 := time.Now()
			hits, err := search(ctx, queries[i%len(queries)])
			lat = append(lat, time.Since(t0))
			if err != nil {
				b.Fatalf("search: %v", err)
			}
			if len(hits) == 0 {
				b.Fatalf("query %q found nothing in 10k documents", queries[i%len(queries)].Text)
			}
		}
		reportLatencies(b, lat)
	}
	b.Run("SearchText", func(b *testing.B) { run(b, idx.SearchText) })
	b.Run("SearchVector", func(b *testing.B) { run(b, idx.SearchVector) })
	b.Run("SearchVector/filtered", func(b *testing.B) {
		// A time range keeps about a third of the documents.
		since := docs[3000].Time
		until := docs[6500].Time
		run(b, func(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
			q.Since, q.Until = &since, &until
			return idx.SearchVector(ctx, q)
		})
	})
}

// BenchmarkSearchManyUsers measures search latency for one user among 1,000
// users of one Lore tenant (20 documents each, 20k in the Weaviate tenant):
// the cost of the strict user filter inside a shared tenant.
func BenchmarkSearchManyUsers(b *testing.B) {
	idx := mustOpen(b)
	ctx := context.Background()
	tenant := "wvbench-" + uuid.NewString()
	dropTenantAfter(b, idx, tenant)
	r := rand.New(rand.NewPCG(5, 6))
	const users, perUser = 1000, 20
	var docs []lore.IndexDoc
	for u := range users {
		docs = append(docs, benchCorpus(r, lore.Scope{TenantID: tenant, UserID: fmt.Sprintf("user-%04d", u)}, perUser)...)
	}
	for start := 0; start < len(docs); start += 500 {
		if err := idx.Upsert(ctx, docs[start:min(start+500, len(docs))]); err != nil {
			b.Fatalf("Upsert: %v", err)
		}
	}
	owner := make(map[string]lore.Scope, len(docs))
	for _, d := range docs {
		owner[d.ID] = d.Scope
	}
	queries := make([]lore.IndexQuery, 64)
	for i := range queries {
		sc := lore.Scope{TenantID: tenant, UserID: fmt.Sprintf("user-%04d", r.IntN(users))}
		queries[i] = lore.IndexQuery{Scope: sc, Text: benchWords[r.IntN(len(benchWords))] + " " + benchWords[r.IntN(10)], Vector: benchVector(r), Limit: 10}
	}
	run := func(b *testing.B, search func(context.Context, lore.IndexQuery) ([]lore.IndexHit, error)) {
		lat := make([]time.Duration, 0, 1024)
		for i := 0; b.Loop(); i++ {
			q := queries[i%len(queries)]
			t0 := time.Now()
			hits, err := search(ctx, q)
			lat = append(lat, time.Since(t0))
			if err != nil {
				b.Fatalf("search: %v", err)
			}
			for _, h := range hits {
				// Every hit must belong to the reading user: the filter is
				// what this benchmark measures, so check it holds.
				if owner[h.ID] != q.Scope {
					b.Fatalf("hit %s is not a document of %s", h.ID, q.Scope.UserID)
				}
			}
		}
		reportLatencies(b, lat)
	}
	b.Run("SearchText", func(b *testing.B) { run(b, idx.SearchText) })
	b.Run("SearchVector", func(b *testing.B) { run(b, idx.SearchVector) })
}
