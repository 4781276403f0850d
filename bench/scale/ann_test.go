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
				hits := make([][]lore.IndexHit, annQueries)
				lat := make([]time.Duration, annQueries)
				for i := range annQueries {
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
			// The default breadth first (its recall and p95 are the headline
			// figures), then wider searches.
			approx, annLat := searchAll()
			sweep := map[string]float64{} // reported after ResetTimer, which drops metrics
			for _, f := range annBreadths {
				st.SetANNBreadth(f)
				wide, wideLat := searchAll()
				idRecall, scoreRecall := recallAll(wide, exact)
				suffix := "-breadth" + strconv.Itoa(f) + "x"
				sweep["recall@100"+suffix] = idRecall
				sweep["score-recall@100"+suffix] = scoreRecall
				sweep["ann-vector-p95-ms"+suffix] = ms(percentile(wideLat, 0.95))
			}
			st.SetANNBreadth(0)
			idRecall, scoreRecall := recallAll(approx, exact)
			p := &retrieve.Pipeline{Graph: st, Index: idx, Embedder: storetest.HashEmbedder{}, Config: retrieve.DefaultConfig()}
			searchLatency(b, p, queries)
			rss, _ := procStats()
			b.ReportMetric(float64(first.Microseconds())/1000, "first-search-ms")
			b.ReportMetric(took.Seconds(), "build-s")
			b.ReportMetric(idRecall, "recall@100")
			b.ReportMetric(scoreRecall, "score-recall@100")
			b.ReportMetric(ms(percentile(exactLat, 0.95)), "exact-vector-p95-ms")
			b.ReportMetric(ms(percentile(annLat, 0.95)), "ann-vector-p95-ms")
			b.ReportMetric(float64(rss)/(1<<20), "rss-MiB")
			for unit, v := range sweep {
				b.ReportMetric(v, unit)
			}
		})
	}
}

// annQueries is the number of vector searches each recall and latency
// figure of BenchmarkANN averages.
const annQueries = 200

// annBreadths are the search breadths (times the limit) swept after the
// default one.
var annBreadths = []int{6, 12, 24}

// recallAll averages two recalls of approx against exact, query by query:
// by id (the share of the exact top ids found) and by score (the share of
// the approximate results scoring at least the exact list's last score).
// They differ where documents tie at the cut: hashed bag-of-words vectors
// give many documents the very same cosine, and which of them the exact
// scan keeps is decided by id, not by similarity; ann-benchmarks counts
// recall the second way.
func recallAll(approx, exact [][]lore.IndexHit) (byID, byScore float64) {
	for i := range approx {
		byID += recallOf(approx[i], exact[i])
		byScore += scoreRecallOf(approx[i], exact[i])
	}
	n := float64(len(approx))
	return byID / n, byScore / n
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

// scoreRecallOf is the share of the len(want) results got should hold that
// it holds with a score at least want's last (less a float32 rounding
// margin): a document tied with the last exact result counts as found.
func scoreRecallOf(got, want []lore.IndexHit) float64 {
	if len(want) == 0 {
		return 1
	}
	cut := want[len(want)-1].Score - 1e-6
	n := 0
	for _, h := range got[:min(len(got), len(want))] {
		if h.Score >= cut {
			n++
		}
	}
	return float64(n) / float64(len(want))
}
