package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore/internal/cputime"
)

// BenchmarkSearchProfileInference measures POST /v1/memories/search over
// 5,000 episodes with query inference off (infer_profile false) and on
// (the default: the query's cues read and a profile job queued on a
// goroutine after the answer; the workers run those jobs meanwhile). The
// query has a cue, so every search of the "on" side queues a job; in the
// querylog case the tenant also keeps a 30-day query log, so every "on"
// search is logged too (the off side is never logged). Each iteration
// times one search of each side, in alternating order, and reports their
// per-side p95 wall time and their mean process CPU time (user + system,
// all goroutines: the profile jobs and logging the "on" side causes are
// counted when they overlap its searches) in ms:
//
//	go test ./api -run '^$' -bench SearchProfileInference -benchtime 300x
func BenchmarkSearchProfileInference(b *testing.B) {
	for _, c := range []struct {
		name string
		days int
	}{{"rules", 0}, {"rules+querylog", 30}} {
		b.Run(c.name, func(b *testing.B) {
			e := newEnv(b)
			seed(b, e, "alice", 5000)
			e.svc.QueryLogDays = func(context.Context, string) (int, error) { return c.days, nil }
			e.runWorkers()
			h := e.srv.Handler()
			const q = `"query": "best climbing gyms downtown for a weekend with friend number 12", "top_k": 10`
			bodies := [2]string{`{"user_id": "alice", "infer_profile": false, ` + q + `}`, `{"user_id": "alice", ` + q + `}`}
			var times [2][]float64
			var cpu [2]time.Duration
			b.ResetTimer()
			i := 0
			for b.Loop() {
				for k := range 2 {
					side := (k + i) % 2
					c0, t0 := cputime.Process(), time.Now()
					rec := httptest.NewRecorder()
					req := httptest.NewRequest("POST", "/v1/memories/search", strings.NewReader(bodies[side]))
					req.Header.Set("Content-Type", "application/json")
					h.ServeHTTP(rec, req)
					times[side] = append(times[side], float64(time.Since(t0).Microseconds())/1000)
					cpu[side] += cputime.Process() - c0
					if rec.Code != http.StatusOK {
						b.Fatalf("status=%d: %s", rec.Code, rec.Body)
					}
				}
				i++
			}
			b.StopTimer()
			b.ReportMetric(p95(times[0]), "p95-off-ms")
			b.ReportMetric(p95(times[1]), "p95-on-ms")
			b.ReportMetric(float64(cpu[0].Microseconds())/1000/float64(len(times[0])), "cpu-off-ms/op")
			b.ReportMetric(float64(cpu[1].Microseconds())/1000/float64(len(times[1])), "cpu-on-ms/op")
		})
	}
}

// p95 returns the 95th percentile of ms.
func p95(ms []float64) float64 {
	if len(ms) == 0 {
		return 0
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[(len(s)*95+99)/100-1]
}
