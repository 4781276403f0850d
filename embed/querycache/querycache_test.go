package querycache

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	lore "github.com/lore-memory/lore"
)

// counter embeds a text as a vector derived from its bytes and counts the
// texts it was asked for, by method.
type counter struct {
	queries, passages []string
	fail              error
}

func (c *counter) vec(t string) []float32 {
	v := make([]float32, 4)
	for i, b := range []byte(t) {
		v[i%4] += float32(b)
	}
	return v
}

func (c *counter) Embed(_ context.Context, texts []string) ([][]float32, error) {
	c.passages = append(c.passages, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = c.vec(t)
	}
	return out, nil
}

func (c *counter) EmbedQuery(_ context.Context, texts []string) ([][]float32, error) {
	if c.fail != nil {
		return nil, c.fail
	}
	c.queries = append(c.queries, texts...)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = c.vec("q:" + t)
	}
	return out, nil
}

func (c *counter) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "counter", Dim: 4} }

func TestNormalize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "where does Caroline live?", "where does Caroline live?"},
		{"outer and inner white space", "  where\tdoes \n Caroline  live? ", "where does Caroline live?"},
		{"case is kept (e5 is cased)", "Where", "Where"},
		{"decomposed accents compose", "cafe\u0301", "caf\u00e9"},
		{"ideographic space", "我妹妹\u3000住在哪裡？", "我妹妹 住在哪裡？"},
		{"empty", " \t", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Normalize(tt.in); got != tt.want {
				t.Errorf("Normalize(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEmbedQueryCaches(t *testing.T) {
	ctx := context.Background()
	c := &counter{}
	e := New(c, 2).(*Embedder)

	first, err := e.EmbedQuery(ctx, []string{"where  does Caroline live?", "where does Caroline live? "})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"where does Caroline live?"}; !slices.Equal(c.queries, want) {
		t.Fatalf("inner saw %q, want %q (one normalized text)", c.queries, want)
	}
	if !slices.Equal(first[0], first[1]) {
		t.Errorf("same normalized text, different vectors %v and %v", first[0], first[1])
	}
	first[0][0] = -1 // the caller's copy: must not reach the cache
	again, err := lore.EmbedQuery(ctx, e, []string{"where does Caroline live?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.queries) != 1 {
		t.Errorf("inner saw %d queries after a repeat, want 1", len(c.queries))
	}
	if !slices.Equal(again[0], c.vec("q:where does Caroline live?")) {
		t.Errorf("cached vector %v, want the inner's %v", again[0], c.vec("q:where does Caroline live?"))
	}
	if hits, misses := e.Stats(); hits != 1 || misses != 2 {
		t.Errorf("hits %d misses %d, want 1 and 2", hits, misses)
	}

	// Passages are not cached and keep the inner embedder's passage mode.
	if _, err := e.Embed(ctx, []string{"where does Caroline live?"}); err != nil {
		t.Fatal(err)
	}
	if len(c.passages) != 1 || len(c.queries) != 1 {
		t.Errorf("Embed went to passages %d, queries %d; want 1, 1", len(c.passages), len(c.queries))
	}
}

func TestEmbedQueryEvictsLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	c := &counter{}
	e := New(c, 2)
	for _, q := range []string{"a", "b", "a", "c", "a", "b"} {
		if _, err := lore.EmbedQuery(ctx, e, []string{q}); err != nil {
			t.Fatal(err)
		}
	}
	// a, b miss; a hits; c misses and evicts b; a hits; b misses again.
	if want := []string{"a", "b", "c", "b"}; !slices.Equal(c.queries, want) {
		t.Errorf("inner saw %q, want %q", c.queries, want)
	}
}

func TestEmbedQueryError(t *testing.T) {
	c := &counter{fail: errors.New("model down")}
	e := New(c, 4)
	if _, err := lore.EmbedQuery(context.Background(), e, []string{"x"}); err == nil || err.Error() != "model down" {
		t.Fatalf("err=%v, want the inner error", err)
	}
	c.fail = nil
	if _, err := lore.EmbedQuery(context.Background(), e, []string{"x"}); err != nil {
		t.Fatal(err)
	}
	if len(c.queries) != 1 {
		t.Errorf("after a failure the query was not embedded again: inner saw %q", c.queries)
	}
}

func TestNewSizes(t *testing.T) {
	c := &counter{}
	if e := New(c, -1); e != lore.Embedder(c) {
		t.Errorf("New(-1)=%T, want the inner embedder (cache off)", e)
	}
	if e := New(c, 0).(*Embedder); e.size != DefaultSize {
		t.Errorf("New(0).size=%d, want %d", e.size, DefaultSize)
	}
	if got := New(c, 3).Info(); got != c.Info() {
		t.Errorf("Info()=%+v, want the inner's %+v", got, c.Info())
	}
}

// BenchmarkEmbedQueryHit is the cost of a cached query: normalization, one
// map lookup under a mutex, and a copy of the vector (384 floats, as MiniLM's
// and e5-small's).
func BenchmarkEmbedQueryHit(b *testing.B) {
	ctx := context.Background()
	e := New(fixed{dim: 384}, 0)
	q := []string{"What did Caroline research after the LGBTQ support group meeting?"}
	if _, err := lore.EmbedQuery(ctx, e, q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lore.EmbedQuery(ctx, e, q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEmbedQueryMissEvict is the bookkeeping of a miss in a full cache
// (the inner embedder here costs nothing; a real model costs milliseconds).
func BenchmarkEmbedQueryMissEvict(b *testing.B) {
	ctx := context.Background()
	e := New(fixed{dim: 384}, 256)
	qs := make([]string, 1024)
	for i := range qs {
		qs[i] = fmt.Sprintf("question number %d about Caroline", i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := lore.EmbedQuery(ctx, e, qs[i%len(qs):i%len(qs)+1]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// fixed returns the same vector for every text.
type fixed struct{ dim int }

func (f fixed) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = make([]float32, f.dim)
		out[i][0] = 1
	}
	return out, nil
}

func (f fixed) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "fixed", Dim: f.dim} }

// barCounter declares an entity-name bar.
type barCounter struct{ counter }

func (*barCounter) EntitySimilarity() float64 { return 0.95 }

func TestEntitySimilarityPassesThrough(t *testing.T) {
	if got := lore.EntitySimilarity(New(&barCounter{}, 8)); got != 0.95 {
		t.Errorf("declared bar through the cache = %v, want 0.95", got)
	}
	if got := lore.EntitySimilarity(New(&counter{}, 8)); got != lore.DefaultEntitySimilarity {
		t.Errorf("undeclared bar through the cache = %v, want the default", got)
	}
}
