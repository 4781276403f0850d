package neo4j_test

import (
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

func TestRetention(t *testing.T) {
	storetest.RunRetention(t, "neo4j", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}
