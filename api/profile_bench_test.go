package api

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkSearchProfileInference measures POST /v1/memories/search over
// 5,000 episodes with query inference off (infer_profile false) and on
// (the default: the query's cues read and a profile job queued on a
// goroutine after the answer; the workers run those jobs meanwhile). The
// query has a cue, so every search of the "on" side queues a job. Each
// iteration times one search of each side, in alternating order, and
// reports their per-side p95 in ms:
//
//	go test ./api -run '^$' -bench SearchProfileInference -benchtime 300x
func BenchmarkSearchProfileInference(b *testing.B) {
	e := newEnv(b)
	seed(b, e, "alice", 5000)
	e.runWorkers()
	h := e.srv.Handler()
	const q = `"query": "best climbing gyms downtown for a weekend with friend number 12", "top_k": 10`
	bodies := [2]string{`{"user_id": "alice", "infer_profile": false, ` + q + `}`, `{"user_id": "alice", ` + q + `}`}
	var times [2][]float64
	b.ResetTimer()
	i := 0
	for b.Loop() {
		for k := range 2 {
			side := (k + i) % 2
			t0 := time.Now()
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("POST", "/v1/memories/search", strings.NewReader(bodies[side]))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(rec, req)
			times[side] = append(times[side], float64(time.Since(t0).Microseconds())/1000)
			if rec.Code != http.StatusOK {
				b.Fatalf("status=%d: %s", rec.Code, rec.Body)
			}
		}
		i++
	}
	b.StopTimer()
	b.ReportMetric(p95(times[0]), "p95-off-ms")
	b.ReportMetric(p95(times[1]), "p95-on-ms")
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
