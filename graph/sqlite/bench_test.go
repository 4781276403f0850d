package sqlite_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/internal/cputime"
	"github.com/lore-memory/lore/storetest"
)

// benchDim is MiniLM's dimension.
const benchDim = 384

// BenchmarkMergeFact measures durable merges (one fsync'd transaction each)
// into one scope: half of them add a fact, half merge into an earlier one.
func BenchmarkMergeFact(b *testing.B) {
	ctx := context.Background()
	st := mustOpen(b)
	sc := lore.Scope{TenantID: "bench", UserID: "alice"}
	subj, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Alice", Type: lore.UserEntityType})
	if err != nil {
		b.Fatal(err)
	}
	distinct := max(b.N/2, 1)
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		obj := fmt.Sprintf("thing %d", i%distinct)
		_, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: subj.ID, Subject: "Alice", Predicate: "likes",
			Object: obj, Text: "Alice likes " + obj, SourceEpisodeIDs: []string{fmt.Sprintf("ep-%d", i)}}, "bench")
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "facts/s")
}

// BenchmarkSearch measures SearchText and SearchVector latency with 10k and
// 100k fact documents in one scope (384-d random unit vectors), plus the
// same number of documents of 50 other users in the same database. Texts
// draw words from a Zipf distribution; Text queries draw from it too (so
// most hold words found in most documents, the costly case for BM25), and
// TextRare queries draw uniformly from the vocabulary.
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		idx, sc, queries, rare, vectors := seedIndex(b, n)
		ctx := context.Background()
		b.Run(fmt.Sprintf("Text/%dk", n/1000), func(b *testing.B) {
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if _, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: queries[i%len(queries)], Limit: 20}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("TextRare/%dk", n/1000), func(b *testing.B) {
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if _, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: rare[i%len(rare)], Limit: 20}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Vector/%dk", n/1000), func(b *testing.B) {
			defer reportCPU(b)()
			for i := 0; i < b.N; i++ {
				if _, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: vectors[i%len(vectors)], Limit: 20}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU starts counting the process's CPU time and returns a function
// that reports it per operation. On a shared machine wall time per
// operation includes waiting for a core; CPU time does not.
func reportCPU(b *testing.B) func() {
	start := cputime.Process()
	return func() {
		if used := cputime.Process() - start; used > 0 {
			b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}

// seedIndex fills a fresh index with n fact documents for one user and n
// spread over 50 others, and returns it with that user's scope, common and
// rare text queries, and query vectors. The vector set is loaded before it returns.
func seedIndex(b *testing.B, n int) (*sqlite.Index, lore.Scope, []string, []string, [][]float32) {
	b.Helper()
	ctx := context.Background()
	idx := mustIndex(b)
	r := rand.New(rand.NewPCG(uint64(n), 42))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocab)-1))
	sentence := func(words int) string {
		parts := make([]string, words)
		for i := range parts {
			parts[i] = vocab[zipf.Uint64()]
		}
		return strings.Join(parts, " ")
	}
	vector := func() []float32 {
		v := make([]float32, benchDim)
		var norm float64
		for i := range v {
			x := r.NormFloat64()
			v[i], norm = float32(x), norm+x*x
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(norm))
		}
		return v
	}
	sc := lore.Scope{TenantID: "bench", UserID: "alice"}
	start := time.Now()
	const batch = 2000
	for _, owner := range []string{"alice", "others"} {
		for lo := 0; lo < n; lo += batch {
			docs := make([]lore.IndexDoc, 0, batch)
			for i := lo; i < min(lo+batch, n); i++ {
				dsc := sc
				if owner == "others" {
					dsc.UserID = fmt.Sprintf("user-%d", i%50)
				}
				docs = append(docs, lore.IndexDoc{ID: fmt.Sprintf("%s-%d", owner, i), Kind: lore.KindFact, Scope: dsc,
					Text: sentence(8 + r.IntN(8)), Vector: vector(), Time: time.Unix(int64(i), 0)})
			}
			if err := idx.Upsert(ctx, docs); err != nil {
				b.Fatal(err)
			}
		}
	}
	queries := make([]string, 64)
	rare := make([]string, 64)
	vectors := make([][]float32, 64)
	for i := range queries {
		queries[i] = sentence(4)
		rare[i] = strings.Join([]string{vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))]}, " ")
		vectors[i] = vector()
	}
	if _, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: vectors[0], Limit: 1}); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d+%d docs and loaded the vector set in %v", n, n, time.Since(start).Round(time.Millisecond))
	return idx, sc, queries, rare, vectors
}

// BenchmarkNeighborhood measures a two-hop walk (Limit 100) from one seed in
// a user's graph of 1,000 entities and 10,000 facts between random pairs.
func BenchmarkNeighborhood(b *testing.B) {
	ctx := context.Background()
	st := mustOpen(b)
	sc := lore.Scope{TenantID: "bench", UserID: "alice"}
	r := rand.New(rand.NewPCG(7, 7))
	ents := make([]*lore.Entity, 1000)
	for i := range ents {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: fmt.Sprintf("entity %d", i), Type: "thing"})
		if err != nil {
			b.Fatal(err)
		}
		ents[i] = e
	}
	for i := range 10_000 {
		s, o := ents[r.IntN(len(ents))], ents[r.IntN(len(ents))]
		_, _, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: s.ID, Subject: s.Name, Predicate: fmt.Sprintf("rel_%d", i%20),
			ObjectID: o.ID, Object: o.Name, Text: s.Name + " relates to " + o.Name}, "bench")
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	defer reportCPU(b)()
	for i := 0; i < b.N; i++ {
		hits, err := st.Neighborhood(ctx, lore.NeighborhoodQuery{Scope: sc, SeedIDs: []string{ents[i%len(ents)].ID}, MaxHops: 2, Limit: 100})
		if err != nil {
			b.Fatal(err)
		}
		if len(hits) == 0 {
			b.Fatal("walk found nothing")
		}
	}
}

// BenchmarkSpeakers10k: storetest.BenchSpeakers on the embedded store.
func BenchmarkSpeakers10k(b *testing.B) {
	storetest.BenchSpeakers(b, mustOpen(b), lore.Scope{TenantID: "bench", UserID: "alice"})
}
