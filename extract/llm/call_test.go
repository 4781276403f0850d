package llm_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

// noCache never remembers, so every extraction calls the endpoint.
type noCache struct{}

func (noCache) Get(context.Context, string) (string, bool, error) { return "", false, nil }
func (noCache) Put(context.Context, string, string) error         { return nil }

func TestExtractTransientFailures(t *testing.T) {
	tests := []struct {
		name       string
		script     []llmtest.Behavior
		always     *llmtest.Behavior
		maxRetries int
		timeout    time.Duration
		wantCode   string // "" for success
		wantCalls  int
	}{
		{name: "429 then ok", script: []llmtest.Behavior{{Status: 429}}, wantCalls: 2},
		{name: "503 twice then ok", script: []llmtest.Behavior{{Status: 503}, {Status: 503}}, wantCalls: 3},
		{name: "500 always", always: &llmtest.Behavior{Status: 500}, maxRetries: 2, wantCode: lore.EUNAVAILABLE, wantCalls: 3},
		{name: "slow then ok", script: []llmtest.Behavior{{Delay: 5 * time.Second}}, timeout: 100 * time.Millisecond, wantCalls: 2},
		{name: "slow always", always: &llmtest.Behavior{Delay: 5 * time.Second}, maxRetries: 1, timeout: 50 * time.Millisecond, wantCode: lore.EUNAVAILABLE, wantCalls: 2},
		{name: "401 is not retried", script: []llmtest.Behavior{{Status: 401}}, wantCode: lore.EINTERNAL, wantCalls: 1},
		{name: "400 is not retried", script: []llmtest.Behavior{{Status: 400}}, wantCode: lore.EINVALID, wantCalls: 1},
		{name: "no retries configured", script: []llmtest.Behavior{{Status: 429}}, maxRetries: -1, wantCode: lore.EUNAVAILABLE, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.FixtureDir())
			srv.Then(tt.script...)
			if tt.always != nil {
				srv.Always(*tt.always)
			}
			x, logs := newExtractor(t, srv, func(c *llm.Config) {
				c.MaxRetries = tt.maxRetries
				if tt.timeout > 0 {
					c.Timeout = tt.timeout
				}
			})
			ext, err := x.Extract(context.Background(), conversation())
			if got := lore.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("error code=%q (%v), want %q", got, err, tt.wantCode)
			}
			if got := len(srv.Requests()); got != tt.wantCalls {
				t.Errorf("requests=%d, want %d", got, tt.wantCalls)
			}
			if got := x.Stats()["acme"].Calls; got != int64(tt.wantCalls) {
				t.Errorf("Stats calls=%d, want %d", got, tt.wantCalls)
			}
			if tt.wantCode == "" && len(ext.Facts) == 0 {
				t.Errorf("no facts after recovering, want the fixture's")
			}
			if tt.wantCalls > 1 && !strings.Contains(logs.String(), "retrying") {
				t.Errorf("log lacks the retries:\n%s", logs)
			}
		})
	}
}

func TestExtractConnectionRefused(t *testing.T) {
	dead := httptest.NewServer(nil)
	url := dead.URL + "/v1"
	dead.Close()
	x, err := llm.New(llm.Config{BaseURL: url, Model: testModel, MaxRetries: 2, RetryBase: time.Millisecond, RetryMax: time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	_, err = x.Extract(context.Background(), conversation())
	if got := lore.ErrorCode(err); got != lore.EUNAVAILABLE {
		t.Fatalf("error code=%q (%v), want %q", got, err, lore.EUNAVAILABLE)
	}
	if got := x.Stats()["acme"]; got.Calls != 3 || got.Failures != 1 {
		t.Errorf("stats=%+v, want 3 calls and 1 failure", got)
	}
}

func TestExtractCallerCancels(t *testing.T) {
	srv := llmtest.New(t, llmtest.FixtureDir())
	srv.Always(llmtest.Behavior{Delay: 5 * time.Second})
	x, _ := newExtractor(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := x.Extract(ctx, conversation())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err=%v, want the caller's deadline", err)
	}
	if got := len(srv.Requests()); got > 1 {
		t.Errorf("requests=%d, want no retry once the caller gave up", got)
	}
}

func TestExtractResponseFormatFallback(t *testing.T) {
	tests := []struct {
		name   string
		reject []string
		want   []string // response_format types of the requests of two extractions
	}{
		{name: "structured output supported", want: []string{"json_schema", "json_schema"}},
		{name: "json_schema unsupported", reject: []string{"json_schema"}, want: []string{"json_schema", "json_object", "json_object"}},
		{name: "no response_format at all", reject: []string{"json_schema", "json_object"}, want: []string{"json_schema", "json_object", "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.FixtureDir())
			srv.RejectResponseFormat(tt.reject...)
			x, _ := newExtractor(t, srv, func(c *llm.Config) { c.Cache = noCache{} })
			for i := range 2 {
				if _, err := x.Extract(context.Background(), conversation()); err != nil {
					t.Fatalf("Extract %d: %v", i+1, err)
				}
			}
			var got []string
			for _, r := range srv.Requests() {
				got = append(got, r.ResponseFormat)
			}
			if !sameIDs(got, tt.want) {
				t.Errorf("response formats=%q, want %q", got, tt.want)
			}
		})
	}
}

// memMeta is a lore.MetaStore in memory.
type memMeta struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *memMeta) GetMeta(_ context.Context, key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	if !ok {
		return "", lore.Errorf(lore.ENOTFOUND, "no meta %q", key)
	}
	return v, nil
}

func (s *memMeta) SetMeta(_ context.Context, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = value
	return nil
}

// brokenCache fails every operation.
type brokenCache struct{}

func (brokenCache) Get(context.Context, string) (string, bool, error) {
	return "", false, errors.New("cache down")
}
func (brokenCache) Put(context.Context, string, string) error { return errors.New("cache down") }

func TestExtractCache(t *testing.T) {
	t.Run("re-extracting makes no call", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.FixtureDir())
		x, _ := newExtractor(t, srv)
		first, err := x.Extract(context.Background(), conversation())
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		// The same text stored again gets new episode ids: the cached reply
		// must map its handles to them.
		again := conversation()
		for i, ep := range again.Episodes {
			ep.ID = fmt.Sprintf("ep-reingested-%d", i)
		}
		second, err := x.Extract(context.Background(), again)
		if err != nil {
			t.Fatalf("Extract again: %v", err)
		}
		if got := len(srv.Requests()); got != 1 {
			t.Errorf("requests=%d, want 1", got)
		}
		if len(second.Facts) != len(first.Facts) {
			t.Fatalf("len(facts)=%d from the cache, want %d", len(second.Facts), len(first.Facts))
		}
		if got := factBy(second, "lives_in", "Lisbon").EpisodeIDs; !sameIDs(got, []string{"ep-reingested-0"}) {
			t.Errorf("cached fact episode ids=%q, want [ep-reingested-0]", got)
		}
		if got := x.Stats()["acme"]; got.Calls != 1 || got.CacheHits != 1 || got.PromptTokens == 0 || got.CompletionTokens == 0 {
			t.Errorf("stats=%+v, want 1 call, 1 cache hit and tokens counted", got)
		}
	})
	t.Run("meta cache survives a restart", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.FixtureDir())
		meta := &memMeta{m: map[string]string{}}
		x, _ := newExtractor(t, srv, func(c *llm.Config) { c.Cache = llm.NewMetaCache(meta) })
		if _, err := x.Extract(context.Background(), conversation()); err != nil {
			t.Fatalf("Extract: %v", err)
		}
		if len(meta.m) != 1 {
			t.Fatalf("meta entries=%d, want 1", len(meta.m))
		}
		for k := range meta.m {
			if !strings.HasPrefix(k, llm.MetaCachePrefix) {
				t.Errorf("meta key %q, want prefix %q", k, llm.MetaCachePrefix)
			}
		}
		restarted, _ := newExtractor(t, srv, func(c *llm.Config) { c.Cache = llm.NewMetaCache(meta) })
		if _, err := restarted.Extract(context.Background(), conversation()); err != nil {
			t.Fatalf("Extract after restart: %v", err)
		}
		if got := len(srv.Requests()); got != 1 {
			t.Errorf("requests=%d, want 1", got)
		}
	})
	t.Run("a failing cache only costs a call", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.FixtureDir())
		x, logs := newExtractor(t, srv, func(c *llm.Config) { c.Cache = brokenCache{} })
		for range 2 {
			if _, err := x.Extract(context.Background(), conversation()); err != nil {
				t.Fatalf("Extract: %v", err)
			}
		}
		if got := len(srv.Requests()); got != 2 {
			t.Errorf("requests=%d, want 2", got)
		}
		if !strings.Contains(logs.String(), "cache read failed") {
			t.Errorf("log lacks the cache failure:\n%s", logs)
		}
	})
	t.Run("another model is another key", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.FixtureDir())
		cache := llm.NewLRU(10)
		x, _ := newExtractor(t, srv, func(c *llm.Config) { c.Cache = cache })
		if _, err := x.Extract(context.Background(), conversation()); err != nil {
			t.Fatalf("Extract: %v", err)
		}
		other, _ := newExtractor(t, srv, func(c *llm.Config) { c.Cache = cache; c.Model = "another-model" })
		// No fixture exists for another-model: the call must be made, and fail.
		if _, err := other.Extract(context.Background(), conversation()); err == nil {
			t.Fatalf("Extract with another model: no error, want the cache missed and the call made")
		}
		if got := len(srv.Requests()); got != 2 {
			t.Errorf("requests=%d, want 2", got)
		}
	})
}

func TestLRU(t *testing.T) {
	ctx := context.Background()
	c := llm.NewLRU(2)
	for _, k := range []string{"a", "b"} {
		if err := c.Put(ctx, k, "v"+k); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	if v, ok, _ := c.Get(ctx, "a"); !ok || v != "va" {
		t.Fatalf("Get(a)=%q,%v, want va,true", v, ok)
	}
	// a was used last, so b is the one evicted.
	if err := c.Put(ctx, "c", "vc"); err != nil {
		t.Fatalf("Put: %v", err)
	}
	for _, tt := range []struct {
		key  string
		want bool
	}{{"a", true}, {"b", false}, {"c", true}} {
		if _, ok, _ := c.Get(ctx, tt.key); ok != tt.want {
			t.Errorf("Get(%s) found=%v, want %v", tt.key, ok, tt.want)
		}
	}
	if c.Len() != 2 {
		t.Errorf("Len=%d, want 2", c.Len())
	}
}

func TestStatsPerTenantConcurrently(t *testing.T) {
	srv := llmtest.New(t, llmtest.FixtureDir())
	x, _ := newExtractor(t, srv, func(c *llm.Config) { c.Cache = noCache{} })
	tenants := []string{"t1", "t2", "t3", "t4"}
	var wg sync.WaitGroup
	errs := make(chan error, len(tenants)*3)
	for _, tenant := range tenants {
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := conversation()
				req.Scope.TenantID = tenant
				if _, err := x.Extract(context.Background(), req); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Extract: %v", err)
	}
	stats := x.Stats()
	for _, tenant := range tenants {
		if got := stats[tenant]; got.Calls != 3 || got.PromptTokens == 0 || got.CompletionTokens == 0 {
			t.Errorf("stats[%s]=%+v, want 3 calls with tokens", tenant, got)
		}
	}
	if _, ok := stats["acme"]; ok {
		t.Errorf("stats has tenant acme, want only the tenants that extracted")
	}
}
