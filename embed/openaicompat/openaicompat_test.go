package openaicompat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	lore "github.com/lore-memory/lore"
)

// fakeServer is an OpenAI-compatible /embeddings endpoint. Each request is
// answered by the step for its number (the last step repeats); a nil step
// answers normally with dim-long vectors derived from the text.
type fakeServer struct {
	t        *testing.T
	dim      int
	steps    []func(w http.ResponseWriter, r *http.Request) bool // true: handled
	requests atomic.Int32
	mu       sync.Mutex
	batches  [][]string // inputs of the normal answers, in order
	models   []string   // model names of the normal answers, in order
	reverse  bool       // answer data in reverse order, as servers may
}

func (s *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.requests.Add(1))
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		s.t.Errorf("request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
		s.t.Errorf("Authorization=%q, want %q", got, "Bearer sk-test")
	}
	if len(s.steps) > 0 {
		if step := s.steps[min(n, len(s.steps))-1]; step != nil && step(w, r) {
			return
		}
	}
	var req struct {
		Input []string `json:"input"`
		Model string   `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.t.Errorf("decode request: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if req.Model != "test-embed" && req.Model != "test-embed-query" {
		s.t.Errorf("model=%q, want %q or %q", req.Model, "test-embed", "test-embed-query")
	}
	s.mu.Lock()
	s.models = append(s.models, req.Model)
	s.mu.Unlock()
	s.mu.Lock()
	s.batches = append(s.batches, req.Input)
	s.mu.Unlock()
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]datum, len(req.Input))
	for i, text := range req.Input {
		data[i] = datum{Object: "embedding", Index: i, Embedding: vectorOf(text, s.dim)}
	}
	if s.reverse {
		slices.Reverse(data)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
}

// vectorOf is a deterministic, unnormalized vector for a text.
func vectorOf(text string, dim int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	seed := h.Sum64()
	v := make([]float32, dim)
	for i := range v {
		seed = seed*6364136223846793005 + 1442695040888963407
		v[i] = float32(int64(seed>>33)%2000-1000) / 100
	}
	return v
}

// failWith is a step that answers an OpenAI-style error with a status.
func failWith(status int) func(http.ResponseWriter, *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"status %d from the fake","type":"test_error"}}`, status)
		return true
	}
}

// hang is a step that answers only after the client gave up. It reads the
// body first: the server notices a closed connection only after that.
func hang(w http.ResponseWriter, r *http.Request) bool {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second): // a client that never gives up fails the test, not hangs it
	}
	return true
}

// newTestEmbedder starts srv and returns an embedder for it with a 1 ms
// backoff, so retries cost no test time.
func newTestEmbedder(t *testing.T, srv *fakeServer, cfg Config) *Embedder {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	cfg.BaseURL = hs.URL + "/v1"
	cfg.APIKey = "sk-test"
	cfg.Model = "test-embed"
	e, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	e.backoff = func(int) time.Duration { return time.Millisecond }
	return e
}

func TestEmbed(t *testing.T) {
	texts := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	tests := []struct {
		name         string
		cfg          Config
		steps        []func(http.ResponseWriter, *http.Request) bool
		serverDim    int
		reverse      bool
		wantCode     string // "" for success
		wantMsg      string
		wantRequests int32
	}{
		{name: "normal in batches", cfg: Config{Dim: 8, BatchSize: 2}, serverDim: 8, wantRequests: 3},
		{name: "data out of order", cfg: Config{Dim: 8}, serverDim: 8, reverse: true, wantRequests: 1},
		{name: "429 then ok", cfg: Config{Dim: 8}, serverDim: 8,
			steps: []func(http.ResponseWriter, *http.Request) bool{failWith(429), nil}, wantRequests: 2},
		{name: "503 twice then ok", cfg: Config{Dim: 8, MaxRetries: 2}, serverDim: 8,
			steps: []func(http.ResponseWriter, *http.Request) bool{failWith(503), failWith(503), nil}, wantRequests: 3},
		{name: "500 exhausted", cfg: Config{Dim: 8, MaxRetries: 2}, serverDim: 8,
			steps:    []func(http.ResponseWriter, *http.Request) bool{failWith(500)},
			wantCode: lore.EUNAVAILABLE, wantMsg: "answered HTTP 500 after 3 attempts", wantRequests: 3},
		{name: "no retries", cfg: Config{Dim: 8, MaxRetries: -1}, serverDim: 8,
			steps:    []func(http.ResponseWriter, *http.Request) bool{failWith(429)},
			wantCode: lore.EUNAVAILABLE, wantMsg: "HTTP 429 after 1 attempts", wantRequests: 1},
		{name: "wrong dimension", cfg: Config{Dim: 8}, serverDim: 12,
			wantCode: lore.ECONFLICT, wantMsg: "returns 12-dimensional vectors, but the configured dimension is 8", wantRequests: 1},
		{name: "timeout", cfg: Config{Dim: 8, MaxRetries: 1, Timeout: 20 * time.Millisecond}, serverDim: 8,
			steps:    []func(http.ResponseWriter, *http.Request) bool{hang},
			wantCode: lore.EUNAVAILABLE, wantMsg: "did not answer within 20ms (2 attempts)", wantRequests: 2},
		{name: "bad request not retried", cfg: Config{Dim: 8}, serverDim: 8,
			steps:    []func(http.ResponseWriter, *http.Request) bool{failWith(400)},
			wantCode: lore.EINVALID, wantMsg: "rejected the input (HTTP 400)", wantRequests: 1},
		{name: "bad key not retried", cfg: Config{Dim: 8}, serverDim: 8,
			steps:    []func(http.ResponseWriter, *http.Request) bool{failWith(401)},
			wantCode: lore.EUNAVAILABLE, wantMsg: "refused the API key", wantRequests: 1},
		{name: "unknown model", cfg: Config{Dim: 8}, serverDim: 8,
			steps:    []func(http.ResponseWriter, *http.Request) bool{failWith(404)},
			wantCode: lore.EUNAVAILABLE, wantMsg: `does not know model "test-embed"`, wantRequests: 1},
		{name: "fewer vectors than texts", cfg: Config{Dim: 8}, serverDim: 8,
			steps: []func(http.ResponseWriter, *http.Request) bool{func(w http.ResponseWriter, r *http.Request) bool {
				fmt.Fprint(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1,0,0,0,0,0,0,0]}]}`)
				return true
			}},
			wantCode: lore.EUNAVAILABLE, wantMsg: "returned 1 vectors for 5 texts", wantRequests: 1},
		{name: "zero vector", cfg: Config{Dim: 2, BatchSize: 1}, serverDim: 2,
			steps: []func(http.ResponseWriter, *http.Request) bool{func(w http.ResponseWriter, r *http.Request) bool {
				fmt.Fprint(w, `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0,0]}]}`)
				return true
			}},
			wantCode: lore.EUNAVAILABLE, wantMsg: "zero or non-finite vector", wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &fakeServer{t: t, dim: tt.serverDim, steps: tt.steps, reverse: tt.reverse}
			e := newTestEmbedder(t, srv, tt.cfg)
			got, err := e.Embed(context.Background(), texts)
			if n := srv.requests.Load(); n != tt.wantRequests {
				t.Errorf("requests=%d, want %d", n, tt.wantRequests)
			}
			if tt.wantCode != "" {
				if err == nil {
					t.Fatalf("Embed succeeded, want %s error", tt.wantCode)
				}
				if code := lore.ErrorCode(err); code != tt.wantCode {
					t.Errorf("code=%q, want %q (err: %v)", code, tt.wantCode, err)
				}
				if msg := lore.ErrorMessage(err); !strings.Contains(msg, tt.wantMsg) {
					t.Errorf("message=%q, want it to contain %q", msg, tt.wantMsg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Embed: %v", err)
			}
			if len(got) != len(texts) {
				t.Fatalf("len(vectors)=%d, want %d", len(got), len(texts))
			}
			for i, text := range texts {
				want := vectorOf(text, tt.serverDim)
				normalize(want)
				if !slices.Equal(got[i], want) {
					t.Errorf("vector %d (%q)=%v, want %v", i, text, got[i], want)
				}
				var sum float64
				for _, x := range got[i] {
					sum += float64(x) * float64(x)
				}
				if math.Abs(sum-1) > 1e-5 {
					t.Errorf("|vector %d|²=%f, want 1", i, sum)
				}
			}
			var sent []string
			srv.mu.Lock()
			defer srv.mu.Unlock()
			for _, b := range srv.batches {
				if len(b) > e.cfg.BatchSize {
					t.Errorf("batch of %d texts, want at most %d", len(b), e.cfg.BatchSize)
				}
				sent = append(sent, b...)
			}
			if !slices.Equal(sent, texts) {
				t.Errorf("texts sent=%v, want %v", sent, texts)
			}
		})
	}
}

func TestEmbedNoTexts(t *testing.T) {
	srv := &fakeServer{t: t, dim: 4}
	e := newTestEmbedder(t, srv, Config{Dim: 4})
	got, err := e.Embed(context.Background(), nil)
	if err != nil || len(got) != 0 {
		t.Fatalf("Embed(nil)=%v, %v; want empty, nil", got, err)
	}
	if n := srv.requests.Load(); n != 0 {
		t.Fatalf("requests=%d, want 0", n)
	}
}

// TestEmbedCanceledWhileBackingOff checks that the caller's context ends a
// retry loop at once, with the caller's error.
func TestEmbedCanceledWhileBackingOff(t *testing.T) {
	srv := &fakeServer{t: t, dim: 4, steps: []func(http.ResponseWriter, *http.Request) bool{failWith(503)}}
	e := newTestEmbedder(t, srv, Config{Dim: 4, MaxRetries: 10})
	ctx, cancel := context.WithCancel(context.Background())
	e.backoff = func(int) time.Duration {
		cancel()
		return time.Hour
	}
	_, err := e.Embed(ctx, []string{"x"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err=%v, want context.Canceled", err)
	}
	if n := srv.requests.Load(); n != 1 {
		t.Fatalf("requests=%d, want 1", n)
	}
}

func TestNew(t *testing.T) {
	valid := Config{BaseURL: "http://localhost:11434/v1", Model: "nomic-embed-text", Dim: 768}
	tests := []struct {
		name    string
		change  func(*Config)
		wantMsg string // "" for success
	}{
		{"valid", func(*Config) {}, ""},
		{"no base URL", func(c *Config) { c.BaseURL = "" }, "base URL is required"},
		{"base URL without scheme", func(c *Config) { c.BaseURL = "localhost:11434" }, "not an http(s) URL"},
		{"base URL of another scheme", func(c *Config) { c.BaseURL = "ftp://host/v1" }, "not an http(s) URL"},
		{"no model", func(c *Config) { c.Model = " " }, "model is required"},
		{"no dimension", func(c *Config) { c.Dim = 0 }, "dimension is 0"},
		{"negative batch", func(c *Config) { c.BatchSize = -1 }, "batch size is -1"},
		{"negative timeout", func(c *Config) { c.Timeout = -time.Second }, "timeout is -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := valid
			tt.change(&cfg)
			e, err := New(cfg)
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				want := lore.EmbedderInfo{Name: "nomic-embed-text", Dim: 768}
				if got := e.Info(); got != want {
					t.Errorf("Info()=%+v, want %+v", got, want)
				}
				if e.cfg.BatchSize != DefaultBatchSize || e.cfg.Timeout != DefaultTimeout || e.retries != DefaultMaxRetries {
					t.Errorf("defaults: batch %d, timeout %v, retries %d; want %d, %v, %d",
						e.cfg.BatchSize, e.cfg.Timeout, e.retries, DefaultBatchSize, DefaultTimeout, DefaultMaxRetries)
				}
				return
			}
			if lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(lore.ErrorMessage(err), tt.wantMsg) {
				t.Fatalf("err=%v, want EINVALID containing %q", err, tt.wantMsg)
			}
		})
	}
}

func TestJitteredBackoff(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		min, max time.Duration
	}{
		{"first retry", 1, backoffBase / 2, backoffBase},
		{"second retry doubles", 2, backoffBase, 2 * backoffBase},
		{"capped", 10, backoffMax / 2, backoffMax},
		{"no overflow", 200, backoffMax / 2, backoffMax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 100 {
				if got := jitteredBackoff(tt.n); got < tt.min || got >= tt.max {
					t.Fatalf("jitteredBackoff(%d)=%v, want in [%v, %v)", tt.n, got, tt.min, tt.max)
				}
			}
		})
	}
}

func TestEmbedQuerySendsQueryModel(t *testing.T) {
	tests := []struct {
		name       string
		queryModel string
		wantQuery  string
		wantName   string
	}{
		{"no query model: queries go as the model", "", "test-embed", "test-embed"},
		{"query model", "test-embed-query", "test-embed-query", "test-embed|test-embed-query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &fakeServer{t: t, dim: 8}
			e := newTestEmbedder(t, srv, Config{Dim: 8, QueryModel: tt.queryModel})
			ctx := context.Background()
			passages, err := e.Embed(ctx, []string{"a passage"})
			if err != nil {
				t.Fatalf("Embed: %v", err)
			}
			queries, err := lore.EmbedQuery(ctx, e, []string{"a query", "another"})
			if err != nil {
				t.Fatalf("EmbedQuery: %v", err)
			}
			if len(passages) != 1 || len(queries) != 2 {
				t.Fatalf("got %d passage and %d query vectors, want 1 and 2", len(passages), len(queries))
			}
			if want := []string{"test-embed", tt.wantQuery}; !slices.Equal(srv.models, want) {
				t.Errorf("models sent=%q, want %q", srv.models, want)
			}
			if got := e.Info().Name; got != tt.wantName {
				t.Errorf("Info().Name=%q, want %q", got, tt.wantName)
			}
		})
	}
}
