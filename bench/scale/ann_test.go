package scale_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench/scale"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/retrieve"
	"github.com/lore-memory/lore/storetest"
)

// annThreshold is the set size from which BenchmarkANN turns the HNSW
// index on: half the one user's facts (50k of the 100k), above every user
// of the 1M case.

// BenchmarkANN measures the embedded store's HNSW index on the 100k facts
// of one user (and, with LORE_SCALE_1M=1, on 1M facts over 10k users,
// where every user's set stays below the threshold and so is scanned
// exactly): the first search over the threshold (it starts the build in
// the background and scans exactly), the build's duration, the recall of
// the ANN top 100 against the exact scan's, SearchVector p95 exact and
// ANN, the full pipeline's p95 with dense on, and the process's resident
// memory.
//
//	go test ./bench/scale -run '^$' -bench 'ANN' -benchtime 200x -timeout 2h
//
// LORE_SCALE_ANN_FACTS sets the one user's facts (default 100000), for a
// quick run.
func BenchmarkANN(b *testing.B) {
	facts := 100_000
	if v := os.Getenv("LORE_SCALE_ANN_FACTS"); v != "" {
		var err error
		if facts, err = strconv.Atoi(v); err != nil {
			b.Fatalf("LORE_SCALE_ANN_FACTS=%q: %v", v, err)
		}
	}
	annThreshold := facts / 2
	datasets := []dataset{{fmt.Sprintf("%dk-facts-1-user", facts/1000), scale.Spec{Users: 1, FactsPerUser: facts, Seed: seed}, true}}
	if os.Getenv("LORE_SCALE_1M") != "" {
		datasets = append(datasets, million)
	}
	for _, ds := range datasets {
		b.Run(ds.name, func(b *testing.B) {
			ls, idx, tenant := sqliteBackend().searchData(b, ds.spec)
			st := ls.(*sqlite.Store)
			queries := queriesOf(ds.spec, tenant)
			ctx := context.Background()
			vq := make([]lore.IndexQuery, len(queries))
			for i, q := range queries {
				vq[i] = lore.IndexQuery{Scope: q.scope, Vector: storetest.HashVector(q.text), Limit: 100}
			}
			searchAll := func() ([][]lore.IndexHit, []time.Duration) {
				hits := make([][]lore.IndexHit, b.N)
				lat := make([]time.Duration, b.N)
				for i := range b.N {
					start := time.Now()
					h, err := idx.SearchVector(ctx, vq[i%len(vq)])
					lat[i] = time.Since(start)
					if err != nil {
						b.Fatal(err)
					}
					hits[i] = h
				}
				slices.Sort(lat)
				return hits, lat
			}
			st.SetANNThreshold(0)
			searchAll() // loads the sets
			exact, exactLat := searchAll()

			st.SetANNThreshold(annThreshold)
			builds, _ := st.ANNBuilds()
			start := time.Now()
			if _, err := idx.SearchVector(ctx, vq[0]); err != nil {
				b.Fatal(err)
			}
			first := time.Since(start)
			if ds.spec.FactsPerUser >= annThreshold {
				// Wait for the build the first search started.
				for {
					if n, _ := st.ANNBuilds(); n > builds {
						break
					}
					time.Sleep(100 * time.Millisecond)
				}
			}
			_, took := st.ANNBuilds()
			approx, annLat := searchAll()
			var recall float64
			for i := range approx {
				recall += recallOf(approx[i], exact[i])
			}
			p := &retrieve.Pipeline{Graph: st, Index: idx, Embedder: storetest.HashEmbedder{}, Config: retrieve.DefaultConfig()}
			b.ResetTimer()
			searchLatency(b, p, queries)
			rss, _ := procStats()
			b.ReportMetric(float64(first.Microseconds())/1000, "first-search-ms")
			b.ReportMetric(took.Seconds(), "build-s")
			b.ReportMetric(recall/float64(len(approx)), "recall@100")
			b.ReportMetric(ms(percentile(exactLat, 0.95)), "exact-vector-p95-ms")
			b.ReportMetric(ms(percentile(annLat, 0.95)), "ann-vector-p95-ms")
			b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
		})
	}
}

// recallOf is the share of want's ids that got holds.
func recallOf(got, want []lore.IndexHit) float64 {
	if len(want) == 0 {
		return 1
	}
	ids := make(map[string]bool, len(got))
	for _, h := range got {
		ids[h.ID] = true
	}
	n := 0
	for _, h := range want {
		if ids[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}
