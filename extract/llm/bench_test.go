package llm

import (
	"context"
	"fmt"
	"testing"

	"github.com/lore-memory/lore"
)

// benchRequest is a batch of n user messages with 20 candidate entities
// and 40 candidate facts, the size ingest sends.
func benchRequest(n int) lore.ExtractRequest {
	scope := lore.Scope{TenantID: "t", UserID: "dana"}
	req := lore.ExtractRequest{Scope: scope, Episodes: longEpisodes(scope, n)}
	for i := range 20 {
		req.Entities = append(req.Entities, &lore.Entity{ID: fmt.Sprintf("e%d", i), Name: fmt.Sprintf("Place %d", i), Type: "place"})
	}
	for i := range 40 {
		req.Facts = append(req.Facts, &lore.Fact{ID: fmt.Sprintf("f%d", i), Text: fmt.Sprintf("Dana visited place %d.", i%20)})
	}
	return req
}

// BenchmarkExtractCached measures everything but the model: planning,
// rendering, hashing, the cache lookup, parsing and validation.
func BenchmarkExtractCached(b *testing.B) {
	x, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", Logger: quiet()})
	if err != nil {
		b.Fatalf("New: %v", err)
	}
	req := benchRequest(8)
	reply := `{"entities": [{"name": "Place 3", "type": "place", "aliases": [], "candidate": 4}], "facts": [`
	for i := range 8 {
		if i > 0 {
			reply += ", "
		}
		reply += fmt.Sprintf(`{"subject": "user", "predicate": "visited", "object": "Place %d", "object_is_entity": true, "fact": "Dana visited Place %d.", "valid_at": "2024-01-0%d", "invalid_at": "", "confidence": 0.9, "messages": [%d], "resolution": "duplicate", "candidate_fact": %d}`, i, i, i+1, i+1, i+1)
	}
	reply += `], "profile": [{"key": "hobby", "value": "museums", "confidence": 0.7, "messages": [1, 2]}]}`
	ctx := context.Background()
	for _, bt := range x.plan(req, newUserInfo(req)) {
		if err := x.cache.Put(ctx, scopeKey(req.Scope.WithDefaults())+cacheKey("m", PromptVersion, x.messages(bt)), reply); err != nil {
			b.Fatalf("Put: %v", err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		ext, err := x.Extract(ctx, req)
		if err != nil || len(ext.Facts) != 8 {
			b.Fatalf("Extract: %d facts, %v; want 8 from the cache", len(ext.Facts), err)
		}
	}
}

// BenchmarkPlan measures splitting and rendering a large request.
func BenchmarkPlan(b *testing.B) {
	x, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", Logger: quiet(), MaxTokensPerCall: 4000})
	if err != nil {
		b.Fatalf("New: %v", err)
	}
	req := benchRequest(100)
	user := newUserInfo(req)
	b.ReportAllocs()
	for b.Loop() {
		if got := x.plan(req, user); len(got) < 2 {
			b.Fatalf("plan: %d batches, want a split", len(got))
		}
	}
}
