package lore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

type symmetric struct{ seen *[]string }

func (s symmetric) Embed(_ context.Context, texts []string) ([][]float32, error) {
	*s.seen = append(*s.seen, "embed:"+texts[0])
	return [][]float32{{1}}, nil
}
func (symmetric) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "s", Dim: 1} }

type asymmetric struct{ symmetric }

func (a asymmetric) EmbedQuery(_ context.Context, texts []string) ([][]float32, error) {
	*a.seen = append(*a.seen, "query:"+texts[0])
	return [][]float32{{1}}, nil
}

func TestEmbedQuery(t *testing.T) {
	var seen []string
	ctx := context.Background()
	if _, err := lore.EmbedQuery(ctx, symmetric{&seen}, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := lore.EmbedQuery(ctx, asymmetric{symmetric{&seen}}, []string{"b"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"embed:a", "query:b"}; !slices.Equal(seen, want) {
		t.Errorf("calls %q, want %q", seen, want)
	}
}
