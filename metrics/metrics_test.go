package metrics

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lore-memory/lore"
)

// fakeIndex fails every call when fail is set.
type fakeIndex struct{ fail bool }

func (f fakeIndex) err() error {
	if f.fail {
		return errors.New("index down")
	}
	return nil
}
func (f fakeIndex) Upsert(context.Context, []lore.IndexDoc) error      { return f.err() }
func (f fakeIndex) Delete(context.Context, lore.Scope, []string) error { return f.err() }
func (f fakeIndex) DeleteScope(context.Context, lore.Scope) error      { return f.err() }
func (f fakeIndex) Close() error                                       { return nil }
func (f fakeIndex) SearchText(context.Context, lore.IndexQuery) ([]lore.IndexHit, error) {
	return nil, f.err()
}
func (f fakeIndex) SearchVector(context.Context, lore.IndexQuery) ([]lore.IndexHit, error) {
	return nil, f.err()
}

type fakeEmbedder struct{ fail bool }

func (f fakeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	if f.fail {
		return nil, errors.New("model gone")
	}
	return make([][]float32, len(texts)), nil
}
func (fakeEmbedder) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "fake", Dim: 1} }

type fakeExtractor struct {
	fail   bool
	forgot *int
}

func (f fakeExtractor) Extract(context.Context, lore.ExtractRequest) (*lore.Extraction, error) {
	if f.fail {
		return nil, errors.New("llm down")
	}
	return &lore.Extraction{Extractor: "fake"}, nil
}
func (f fakeExtractor) Forget(context.Context, lore.Scope) error { *f.forgot++; return nil }

type fakeQueue map[lore.JobStatus]int

func (q fakeQueue) CountJobs(context.Context, string) (map[lore.JobStatus]int, error) { return q, nil }

// exercise touches every collector once, as a running server does.
func exercise(t *testing.T, m *Metrics) {
	t.Helper()
	ctx := context.Background()
	m.ObserveHTTP("GET", "/v1/memories", 200, time.Millisecond)
	m.ObserveStage("candidates", time.Millisecond)
	job := &lore.Job{Kind: "extract", Status: lore.JobRetrying, Attempts: 2}
	m.JobEnqueued(job)
	m.JobSettled(job, false)
	_ = m.WrapIndex(fakeIndex{fail: true}).Upsert(ctx, nil)
	_, _ = m.WrapEmbedder(fakeEmbedder{fail: true}).Embed(ctx, []string{"a"})
	n := 0
	_, _ = m.WrapExtractor(fakeExtractor{fail: true, forgot: &n}).Extract(ctx, lore.ExtractRequest{Scope: lore.Scope{TenantID: "acme"}})
	m.WatchQueue(fakeQueue{lore.JobQueued: 3})
	m.WatchUsage(func() map[string]Usage {
		return map[string]Usage{"acme": {Calls: 2, PromptTokens: 100, CompletionTokens: 20}}
	})
	g := m.WrapGraph(nil)
	_ = g.count("find_facts", errors.New("store down"))
}

func TestCountsWhatTheyObserve(t *testing.T) {
	m := New(prometheus.NewRegistry())
	exercise(t, m)
	ctx := context.Background()
	_, _ = m.WrapEmbedder(fakeEmbedder{}).Embed(ctx, make([]string, 20))
	forgot := 0
	x := m.WrapExtractor(fakeExtractor{forgot: &forgot})
	_, _ = x.Extract(ctx, lore.ExtractRequest{Scope: lore.Scope{TenantID: "acme"}})
	if err := x.Forget(ctx, lore.Scope{TenantID: "acme"}); err != nil || forgot != 1 {
		t.Errorf("Forget err=%v forgot=%d, want it forwarded once", err, forgot)
	}
	cases := []struct {
		name string
		c    prometheus.Collector
		want float64
	}{
		{"requests", m.httpRequests.WithLabelValues("GET", "/v1/memories", "200"), 1},
		{"job retrying", m.jobOutcomes.WithLabelValues("retrying"), 1},
		{"retries", m.jobRetries.WithLabelValues("extract"), 1},
		{"index errors", m.indexErrors.WithLabelValues("upsert"), 1},
		{"embed errors", m.embedErrors, 1},
		{"extractor calls", m.extractorCalls.WithLabelValues("acme"), 2},
		{"extractor errors", m.extractorErrors.WithLabelValues("acme"), 1},
		{"store errors", m.storeErrors.WithLabelValues("find_facts"), 1},
	}
	for _, c := range cases {
		if got := testutil.ToFloat64(c.c); got != c.want {
			t.Errorf("%s=%v, want %v", c.name, got, c.want)
		}
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{`lore_queue_jobs{status="queued"} 3`, `lore_llm_tokens_total{kind="prompt",tenant="acme"} 100`,
		`lore_embedder_duration_seconds_count{batch="17+"} 1`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// TestDashboardQueriesExist fails when docs/grafana/lore.json queries a
// series that Lore does not export.
func TestDashboardQueriesExist(t *testing.T) {
	raw, err := os.ReadFile("../docs/grafana/lore.json")
	if err != nil {
		t.Fatalf("read dashboard: %v", err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("dashboard is not JSON: %v", err)
	}
	m := New(prometheus.NewRegistry())
	exercise(t, m)
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	exported := map[string]bool{}
	for _, f := range families {
		name := f.GetName()
		exported[name] = true
		if f.GetType().String() == "HISTOGRAM" {
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				exported[name+suffix] = true
			}
		}
	}
	series := regexp.MustCompile(`\blore_[a-z_]+\b`)
	queried := 0
	for _, p := range dash.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, target := range p.Targets {
			names := series.FindAllString(target.Expr, -1)
			if len(names) == 0 {
				t.Errorf("panel %q queries no Lore series: %s", p.Title, target.Expr)
			}
			for _, n := range names {
				queried++
				if !exported[n] {
					t.Errorf("panel %q queries %s, which Lore does not export", p.Title, n)
				}
			}
		}
	}
	// Every Lore series is charted somewhere (a histogram through its
	// buckets).
	var all strings.Builder
	for _, p := range dash.Panels {
		for _, target := range p.Targets {
			all.WriteString(target.Expr + "\n")
		}
	}
	for name := range exported {
		if !strings.HasPrefix(name, "lore_") || strings.HasSuffix(name, "_count") || strings.HasSuffix(name, "_sum") || exported[name+"_bucket"] {
			continue
		}
		if !strings.Contains(all.String(), name) {
			t.Errorf("series %s is exported but on no dashboard panel", name)
		}
	}
	if queried < 15 {
		t.Errorf("dashboard queries %d series, want every Lore metric", queried)
	}
}

// queryStub embeds queries and passages differently and declares its own
// entity-similarity bar.
type queryStub struct{ calls []string }

func (s *queryStub) Embed(_ context.Context, texts []string) ([][]float32, error) {
	s.calls = append(s.calls, "embed")
	return [][]float32{{1, 0}}, nil
}

func (s *queryStub) EmbedQuery(_ context.Context, texts []string) ([][]float32, error) {
	s.calls = append(s.calls, "query")
	return [][]float32{{0, 1}}, nil
}

func (s *queryStub) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "stub", Dim: 2} }

func (s *queryStub) EntitySimilarity() float64 { return 0.95 }

// TestEmbedderKeepsQueryPath: the wrapper must not hide the wrapped
// embedder's query path (a query cache, e5's "query: " prefix) or its
// entity-similarity bar, and it times query embeddings too.
func TestEmbedderKeepsQueryPath(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := New(reg)
	stub := &queryStub{}
	e := m.WrapEmbedder(stub)
	vs, err := lore.EmbedQuery(context.Background(), e, []string{"where do I live?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0][1] != 1 || strings.Join(stub.calls, ",") != "query" {
		t.Fatalf("EmbedQuery through the wrapper: vectors %v, calls %v; want the query vector from one EmbedQuery call", vs, stub.calls)
	}
	if got := lore.EntitySimilarity(e); got != 0.95 {
		t.Fatalf("EntitySimilarity through the wrapper = %v, want the wrapped embedder's 0.95", got)
	}
	if n := testutil.CollectAndCount(m.embedDuration); n != 1 {
		t.Fatalf("embedder latency series = %d, want 1 (the query call timed)", n)
	}
}
