package neo4j_test

import (
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

func TestNameRewriter(t *testing.T) {
	storetest.RunNameRewriter(t, "neo4j", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}
