package api

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/metrics"
)

func TestMetricsAndUsage(t *testing.T) {
	mx := metrics.New(prometheus.NewRegistry())
	e := newEnv(t, func(s *Server) {
		s.Metrics = mx
		s.Search.Observe = mx.ObserveStage
		s.Usage = func() map[string]LLMUsage {
			return map[string]LLMUsage{"acme": {Calls: 3, PromptTokens: 120, CompletionTokens: 30}}
		}
	})
	e.must(http.StatusOK, "POST", "/v1/memories", map[string]any{"user_id": "alice", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "I live in Paris."}}})
	e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"user_id": "alice", "query": "Paris"})
	e.must(http.StatusNotFound, "GET", "/v1/memories/nope?user_id=alice", nil)

	body := e.must(http.StatusOK, "GET", "/metrics", nil).Body.String()
	for _, want := range []string{
		`lore_http_requests_total{method="POST",route="/v1/memories/search",status="200"} 1`,
		// The route pattern, never the raw path with its id.
		`lore_http_requests_total{method="GET",route="/v1/memories/:id",status="404"} 1`,
		`lore_search_stage_duration_seconds_count{stage="candidates"} 1`,
		`lore_search_stage_duration_seconds_count{stage="context"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	u := decode[usageAnswer](t, e.must(http.StatusOK, "GET", "/v1/usage", nil, TenantHeader, "acme"))
	if !u.LLM || u.TenantID != "acme" || u.Calls != 3 || u.PromptTokens != 120 || u.CompletionTokens != 30 {
		t.Errorf("usage=%+v, want acme's counts", u)
	}
	other := decode[usageAnswer](t, e.must(http.StatusOK, "GET", "/v1/usage", nil))
	if other.TenantID != "default" || other.Calls != 0 {
		t.Errorf("usage of another tenant=%+v, want zero counts for default", other)
	}
}

// TestMetricsCountRefusals: requests the auth middleware refuses are
// counted under the route "refused".
func TestMetricsCountRefusals(t *testing.T) {
	ae := newAuthEnv(t)
	ae.srv.Metrics = metrics.New(prometheus.NewRegistry())
	admin := ae.key(lore.APIKey{TenantID: "acme", Admin: true})
	ae.do("GET", "/v1/memories?user_id=alice", nil)
	ae.do("GET", "/v1/memories?user_id=alice", nil, bearer("lore_"+strings.Repeat("B", 43))...)
	body := ae.must(http.StatusOK, "GET", "/metrics", nil, bearer(admin)...).Body.String()
	if want := `lore_http_requests_total{method="GET",route="refused",status="401"} 2`; !strings.Contains(body, want) {
		t.Errorf("/metrics lacks %s", want)
	}
}

func TestUsageWithoutLLM(t *testing.T) {
	e := newEnv(t)
	u := decode[usageAnswer](t, e.must(http.StatusOK, "GET", "/v1/usage", nil))
	if u.LLM || u.Calls != 0 {
		t.Errorf("usage=%+v, want llm false and zero counts", u)
	}
	wantError(t, e.do("GET", "/metrics", nil), http.StatusServiceUnavailable, "unavailable", "metrics")
}

// TestRequestIDReachesTheJob: the job an add enqueues keeps the request's
// id, so the worker's logs carry it.
func TestRequestIDReachesTheJob(t *testing.T) {
	e := newEnv(t)
	rec := e.must(http.StatusAccepted, "POST", "/v1/memories", map[string]any{"user_id": "alice",
		"messages": []map[string]any{{"role": "user", "content": "I work at Acme."}}}, RequestIDHeader, "trace-123")
	acc := decode[addAccepted](t, rec)
	job, err := e.store.GetJob(t0(t), "default", acc.JobID)
	if err != nil {
		t.Fatalf("GetJob: %v", err)
	}
	if job.RequestID != "trace-123" {
		t.Errorf("job.RequestID=%q, want the request's trace-123", job.RequestID)
	}
}

// TestMetricsKeepStreaming: with metrics on, the streamed export still
// flushes through the middleware's writer.
func TestMetricsKeepStreaming(t *testing.T) {
	e := newEnv(t, func(s *Server) { s.Metrics = metrics.New(prometheus.NewRegistry()) })
	e.addSync("alice", "I live in Paris.")
	srv := httptest.NewServer(e.srv.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/users/alice/export")
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"type":"end"`) {
		t.Errorf("export=%d %s, want the whole stream", resp.StatusCode, b)
	}
}
