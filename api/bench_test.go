package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

// seed stores n verbatim episodes for user in batches, through ingest.
func seed(b *testing.B, e *testEnv, user string, n int) {
	b.Helper()
	ctx := context.Background()
	cities := []string{"Paris", "Oslo", "Lima", "Kyoto", "Accra", "Perth", "Quito", "Tunis"}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for done := 0; done < n; {
		var msgs []ingest.Message
		for i := 0; i < 200 && done < n; i, done = i+1, done+1 {
			at := start.Add(time.Duration(done) * time.Minute)
			msgs = append(msgs, ingest.Message{Role: "user", CreatedAt: &at,
				Content: fmt.Sprintf("Note %d: I visited %s with friend number %d and we talked about project %d.", done, cities[done%len(cities)], done%97, done%31)})
		}
		if _, err := e.svc.Add(ctx, ingest.AddRequest{Scope: lore.Scope{UserID: user}, Messages: msgs}); err != nil {
			b.Fatalf("seed: %v", err)
		}
	}
}

// BenchmarkSearchHTTP measures POST /v1/memories/search end to end through
// the handler (JSON in and out, BM25 and graph retrieval, no embedder)
// over 5,000 episodes of one user.
func BenchmarkSearchHTTP(b *testing.B) {
	e := newEnv(b)
	seed(b, e, "alice", 5000)
	h := e.srv.Handler()
	body := `{"user_id": "alice", "query": "what did I talk about in Kyoto with friend number 12?", "top_k": 10}`
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/memories/search", strings.NewReader(body)))
		if rec.Code != http.StatusOK {
			b.Fatalf("status=%d: %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkAddVerbatimHTTP measures POST /v1/memories of one message with
// infer false: decode, validate, a durable write and indexing.
func BenchmarkAddVerbatimHTTP(b *testing.B) {
	e := newEnv(b)
	h := e.srv.Handler()
	body := `{"user_id": "alice", "infer": false, "messages": [{"role": "user", "content": "I visited Kyoto with my friend Aiko last spring."}]}`
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/memories", strings.NewReader(body)))
		if rec.Code != http.StatusOK {
			b.Fatalf("status=%d: %s", rec.Code, rec.Body)
		}
	}
}
