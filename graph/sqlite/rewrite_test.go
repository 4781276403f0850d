package sqlite_test

import (
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

func TestNameRewriter(t *testing.T) {
	storetest.RunNameRewriter(t, "sqlite", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}
