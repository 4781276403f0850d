// Package embedbench holds the benchmark loop the embedders share, so that
// their figures in README are measured the same way.
package embedbench

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore/internal/cputime"
)

// EmbedQueryFunc embeds search queries, as lore.QueryEmbedder does.
type EmbedQueryFunc func(ctx context.Context, texts []string) ([][]float32, error)

// QueryLatency embeds queries one at a time, as a search pays for one on a
// cache miss, and reports p50 and p95 wall time and this process's CPU per
// query (which stays comparable on a busy machine; for an embedder behind
// a server it is only the client's share). The first query is embedded
// once before timing, so session warm-up is not counted.
func QueryLatency(b *testing.B, embed EmbedQueryFunc, queries []string) {
	b.Helper()
	ctx := context.Background()
	if _, err := embed(ctx, queries[:1]); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	cpu0 := cputime.Process()
	i := 0
	for b.Loop() {
		q := queries[i%len(queries) : i%len(queries)+1]
		start := time.Now()
		if _, err := embed(ctx, q); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
