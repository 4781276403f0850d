package prefix

import (
	"context"
	"slices"
	"testing"

	lore "github.com/lore-memory/lore"
)

// recorder is an embedder that records what it was asked to embed, and by
// which method.
type recorder struct {
	passages, queries [][]string
}

func (r *recorder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	r.passages = append(r.passages, texts)
	return vectors(len(texts)), nil
}

func (r *recorder) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "rec", Dim: 2} }

// queryRecorder also has its own query mode.
type queryRecorder struct{ recorder }

func (r *queryRecorder) EmbedQuery(_ context.Context, texts []string) ([][]float32, error) {
	r.queries = append(r.queries, texts)
	return vectors(len(texts)), nil
}

func vectors(n int) [][]float32 {
	out := make([][]float32, n)
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out
}

func TestPrefixes(t *testing.T) {
	ctx := context.Background()
	t.Run("symmetric inner: both through Embed", func(t *testing.T) {
		r := &recorder{}
		e := New(r, "query: ", "passage: ")
		if _, err := e.Embed(ctx, []string{"Caroline moved to Paris."}); err != nil {
			t.Fatal(err)
		}
		if _, err := lore.EmbedQuery(ctx, e, []string{"where does Caroline live?"}); err != nil {
			t.Fatal(err)
		}
		want := [][]string{{"passage: Caroline moved to Paris."}, {"query: where does Caroline live?"}}
		if !slices.EqualFunc(r.passages, want, slices.Equal) {
			t.Errorf("inner saw %q, want %q", r.passages, want)
		}
	})
	t.Run("asymmetric inner: queries through its EmbedQuery", func(t *testing.T) {
		r := &queryRecorder{}
		e := New(r, "q: ", "")
		if _, err := e.Embed(ctx, []string{"a", "b"}); err != nil {
			t.Fatal(err)
		}
		if _, err := lore.EmbedQuery(ctx, e, []string{"c"}); err != nil {
			t.Fatal(err)
		}
		if want := [][]string{{"a", "b"}}; !slices.EqualFunc(r.passages, want, slices.Equal) {
			t.Errorf("passages %q, want %q", r.passages, want)
		}
		if want := [][]string{{"q: c"}}; !slices.EqualFunc(r.queries, want, slices.Equal) {
			t.Errorf("queries %q, want %q", r.queries, want)
		}
	})
	t.Run("no prefixes: the inner embedder itself", func(t *testing.T) {
		r := &recorder{}
		if e := New(r, "", ""); e != lore.Embedder(r) {
			t.Errorf("New with no prefixes = %T, want the inner embedder", e)
		}
	})
	t.Run("info records the prefixes", func(t *testing.T) {
		got := New(&recorder{}, "query: ", "passage: ").Info()
		want := lore.EmbedderInfo{Name: "rec", Dim: 2, QueryPrefix: "query: ", PassagePrefix: "passage: "}
		if got != want {
			t.Errorf("Info()=%+v, want %+v", got, want)
		}
	})
}

// barRecorder declares an entity-name bar.
type barRecorder struct{ recorder }

func (barRecorder) EntitySimilarity() float64 { return 0.95 }

func TestEntitySimilarityPassesThrough(t *testing.T) {
	if got := lore.EntitySimilarity(New(&barRecorder{}, "q: ", "p: ")); got != 0.95 {
		t.Errorf("declared bar through prefix = %v, want 0.95", got)
	}
	if got := lore.EntitySimilarity(New(&recorder{}, "q: ", "p: ")); got != lore.DefaultEntitySimilarity {
		t.Errorf("undeclared bar through prefix = %v, want the default", got)
	}
}
