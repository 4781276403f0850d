package retrieve_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/internal/cputime"
	"github.com/lore-memory/lore/retrieve"
)

// personalOn turns every issue-14 signal on for BenchmarkSearch — feedback,
// personal, frequency, success, per-intent weights, MMR and the role
// policy — after giving the store state to read: three verdicts with the
// query and usage on each query's top 10. With usage, every search also
// records its top k as returned (one write per search).
func personalOn(b *testing.B, w *world, sc lore.Scope, p *retrieve.Pipeline, queries []string, usage bool) {
	b.Helper()
	ctx := context.Background()
	p.Feedback = w.store
	for _, q := range queries {
		resp, err := p.Search(ctx, retrieve.Request{Scope: sc, Query: q, QueryTime: w.base.AddDate(0, 1, 0)})
		if err != nil {
			b.Fatal(err)
		}
		var used []lore.UsageRecord
		for i, r := range resp.Results {
			for range 3 {
				v := lore.Verdict{Scope: sc, MemoryID: r.ID, Helpful: i%3 != 2, QueryHash: lore.QueryHash(q)}
				if _, err := w.store.RecordVerdict(ctx, &v, lore.DefaultFeedbackRule()); err != nil {
					b.Fatal(err)
				}
			}
			used = append(used, lore.UsageRecord{Scope: sc, MemoryID: r.ID, Returned: 2, Cited: 1})
		}
		if err := w.store.RecordUsage(ctx, used); err != nil {
			b.Fatal(err)
		}
	}
	pc := &p.Config.Personal
	pc.Feedback, pc.Personal, pc.Frequency, pc.Success, pc.Intents, pc.TrackUsage = true, 0.3, 0.3, 1, true, usage
	p.Config.MMR.On = true
	p.Config.Policy = retrieve.PolicyConfig{RoleKey: "roles"}
}

// benchPersonal times the pipeline with every issue-14 signal on against
// the same pipeline with them off, alternating query by query so that the
// load of a shared machine falls on both alike, and reports both p50/p95
// and the p95 difference.
func benchPersonal(b *testing.B, w *world, sc lore.Scope, off *retrieve.Pipeline, queries []string, usage bool) {
	on := *off
	personalOn(b, w, sc, &on, queries, usage)
	ctx := context.Background()
	var latOn, latOff, cpuOn, cpuOff []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		req := retrieve.Request{Scope: sc, Query: queries[i%len(queries)], QueryTime: w.base.AddDate(0, 1, 0)}
		first, second := off, &on
		if i%2 == 1 {
			first, second = second, first
		}
		for _, p := range []*retrieve.Pipeline{first, second} {
			start, cpu := time.Now(), cputime.Process()
			if _, err := p.Search(ctx, req); err != nil {
				b.Fatal(err)
			}
			if p == off {
				latOff, cpuOff = append(latOff, time.Since(start)), append(cpuOff, cputime.Process()-cpu)
			} else {
				latOn, cpuOn = append(latOn, time.Since(start)), append(cpuOn, cputime.Process()-cpu)
			}
		}
	}
	pct := func(lat []time.Duration, p float64) float64 {
		slices.Sort(lat)
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(latOff, 0.50), "off-p50-ms")
	b.ReportMetric(pct(latOn, 0.50), "on-p50-ms")
	b.ReportMetric(pct(latOff, 0.95), "off-p95-ms")
	b.ReportMetric(pct(latOn, 0.95), "on-p95-ms")
	b.ReportMetric(pct(latOn, 0.95)-pct(latOff, 0.95), "p95-delta-ms")
	// CPU time per search (the process's, the search being all it runs):
	// what the signals cost, less bent by a loaded machine than wall time.
	b.ReportMetric(pct(cpuOff, 0.95), "off-cpu-p95-ms")
	b.ReportMetric(pct(cpuOn, 0.95), "on-cpu-p95-ms")
	// The mean moves least with the machine's load: what the signals add
	// to every search, on average.
	b.ReportMetric(meanMS(cpuOff), "off-cpu-mean-ms")
	b.ReportMetric(meanMS(cpuOn), "on-cpu-mean-ms")
}

// meanMS is the mean of durations, in milliseconds.
func meanMS(ds []time.Duration) float64 {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return float64(sum.Microseconds()) / 1000 / float64(max(len(ds), 1))
}
