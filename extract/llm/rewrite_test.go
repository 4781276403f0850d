package llm_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

// bodies records the JSON bodies a client sends.
type bodies struct {
	mu  sync.Mutex
	got []string
}

func (b *bodies) RoundTrip(r *http.Request) (*http.Response, error) {
	raw, _ := io.ReadAll(r.Body)
	b.mu.Lock()
	b.got = append(b.got, string(raw))
	b.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(raw))
	return http.DefaultTransport.RoundTrip(r)
}

func TestRewriterReplaysAndFallsBack(t *testing.T) {
	srv := llmtest.New(t, "")
	profile := []lore.ProfileEntry{{Key: "diet", Value: "vegetarian", Source: lore.ProfileExplicit, Confidence: 1}}
	query := "Any dinner ideas for tonight?"
	system := strings.TrimSpace(mustRead(t))
	srv.Add(llmtest.Fixture{Model: "m", Messages: []llmtest.Message{
		{Role: "system", Content: system}, {Role: "user", Content: llm.RewriteInput(query, profile)},
	}, Reply: "vegetarian dinner ideas for tonight"})
	rec := &bodies{}
	w, err := llm.NewRewriter(llm.Config{BaseURL: srv.URL, Model: "m", HTTPClient: &http.Client{Transport: rec}, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.RewriteQuery(context.Background(), query, profile)
	if err != nil || got != "vegetarian dinner ideas for tonight" {
		t.Fatalf("RewriteQuery=%q, %v; want the replayed rewrite", got, err)
	}
	if len(rec.got) != 1 || !strings.Contains(rec.got[0], `"temperature":0.3`) {
		t.Errorf("request bodies %v, want one at temperature 0.3", rec.got)
	}
	// No profile: no call, the query as asked.
	if got, err := w.RewriteQuery(context.Background(), query, nil); err != nil || got != query || len(rec.got) != 1 {
		t.Errorf("RewriteQuery(no profile)=%q, %v after %d calls; want the query and no call", got, err, len(rec.got))
	}

	// Failures and timeouts: the pipeline keeps the original query.
	for name, b := range map[string]llmtest.Behavior{
		"500":     {Status: http.StatusInternalServerError},
		"timeout": {Delay: 2 * time.Second},
		"blank":   {Reply: ptr("  ")},
	} {
		srv.Then(b)
		if _, err := w.RewriteQuery(context.Background(), query, profile); err == nil {
			t.Errorf("%s: RewriteQuery err=nil, want an error", name)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func mustRead(t *testing.T) string {
	t.Helper()
	return llm.RewriteSystemPrompt()
}
