package ingest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/lore-memory/lore"
)

// countingEmbedder records every text it is asked to embed.
type countingEmbedder struct {
	hashEmbedder
	mu    sync.Mutex
	texts []string
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.mu.Lock()
	c.texts = append(c.texts, texts...)
	c.mu.Unlock()
	return c.hashEmbedder.Embed(ctx, texts)
}

func TestEmbedCacheEmbedsEachTextOnce(t *testing.T) {
	ctx := context.Background()
	emb := &countingEmbedder{hashEmbedder: hashEmbedder{name: "hash", dim: 16}}
	s := &Service{Embedder: emb, Config: testConfig()}
	first, err := s.embed(ctx, []string{"a cat", "a dog", "a cat"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(emb.texts, []string{"a cat", "a dog"}) {
		t.Fatalf("embedded %q, want each distinct text once", emb.texts)
	}
	if !slices.Equal(first[0], first[2]) || slices.Equal(first[0], first[1]) {
		t.Fatalf("vectors not in the order of the texts: %v", first)
	}
	again, err := s.embed(ctx, []string{"a dog", "a bird", "a cat"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(emb.texts, []string{"a cat", "a dog", "a bird"}) {
		t.Fatalf("embedded %q, want only the new text the second time", emb.texts)
	}
	want, _ := emb.hashEmbedder.Embed(ctx, []string{"a dog", "a bird", "a cat"})
	for i := range want {
		if !slices.Equal(again[i], want[i]) {
			t.Fatalf("vector %d from the cache differs from the embedder's", i)
		}
	}
	if lookups, hits := s.EmbedCacheStats(); lookups != 6 || hits != 2 {
		t.Fatalf("stats: %d lookups, %d hits; want 6, 2", lookups, hits)
	}
}

func TestEmbedCacheKeyedByModel(t *testing.T) {
	ctx := context.Background()
	s := &Service{Embedder: &countingEmbedder{hashEmbedder: hashEmbedder{name: "a", dim: 16}}, Config: testConfig()}
	if _, err := s.embed(ctx, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	other := &countingEmbedder{hashEmbedder: hashEmbedder{name: "b", dim: 16}}
	s.Embedder = other
	if _, err := s.embed(ctx, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if len(other.texts) != 1 {
		t.Fatalf("another model's vector was served from the cache")
	}
}

func TestEmbedCacheBounded(t *testing.T) {
	c := newEmbedCache(10)
	key := func(i int) embedKey { return embedKey{model: fmt.Sprint(i)} }
	for i := range 100 {
		c.put(key(i), []float32{float32(i)})
		if i%3 == 0 {
			c.get(key(0)) // kept while used
		}
	}
	if n := c.len(); n > 20 {
		t.Fatalf("cache holds %d vectors, bound 2×10", n)
	}
	if c.get(key(0)) == nil {
		t.Fatal("a vector used within the last 10 insertions was dropped")
	}
	if c.get(key(50)) != nil {
		t.Fatal("an old unused vector is still held")
	}
}

func TestEmbedCacheOff(t *testing.T) {
	ctx := context.Background()
	emb := &countingEmbedder{hashEmbedder: hashEmbedder{name: "hash", dim: 16}}
	cfg := testConfig()
	cfg.EmbedCacheSize = -1
	s := &Service{Embedder: emb, Config: cfg}
	for range 2 {
		if _, err := s.embed(ctx, []string{"a"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(emb.texts) != 2 {
		t.Fatalf("embedded %d times with the cache off, want 2", len(emb.texts))
	}
}

// A sync add of messages whose facts merge again embeds no fact key twice.
func TestAddEmbedsRepeatedTextOnce(t *testing.T) {
	ctx := context.Background()
	s, _, _ := newTestService(t, nil)
	emb := &countingEmbedder{hashEmbedder: hashEmbedder{name: "hash", dim: 32}}
	s.Embedder = emb
	s.Extractor = stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		return &lore.Extraction{Facts: []lore.ExtractedFact{{Subject: "user", Predicate: "likes", Object: "tea", Text: "User likes tea"}}}, nil
	}}
	scope := lore.Scope{TenantID: "t", UserID: "u"}
	for _, text := range []string{"I like tea", "I still like tea"} {
		if _, err := s.Add(ctx, AddRequest{Scope: scope, Messages: []Message{{Role: "user", Content: text}}, Infer: true, Sync: true}); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for _, x := range emb.texts {
		if seen[x]++; seen[x] > 1 {
			t.Fatalf("%q embedded %d times", x, seen[x])
		}
	}
}
