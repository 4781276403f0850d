package lore_test

import (
	"testing"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

// declaring is an embedder that declares a bar.
type declaring struct {
	storetest.HashEmbedder
	bar float64
}

func (d declaring) EntitySimilarity() float64 { return d.bar }

func TestEntitySimilarity(t *testing.T) {
	for _, c := range []struct {
		name string
		e    lore.Embedder
		want float64
	}{
		{"undeclared is the default", storetest.HashEmbedder{}, lore.DefaultEntitySimilarity},
		{"declared", declaring{bar: 0.95}, 0.95},
		{"zero falls back", declaring{bar: 0}, lore.DefaultEntitySimilarity},
		{"above one falls back", declaring{bar: 1.5}, lore.DefaultEntitySimilarity},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := lore.EntitySimilarity(c.e); got != c.want {
				t.Errorf("EntitySimilarity = %v, want %v", got, c.want)
			}
		})
	}
}
