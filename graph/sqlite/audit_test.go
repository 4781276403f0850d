package sqlite_test

import (
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

func TestAudit(t *testing.T) {
	storetest.RunAudit(t, "sqlite", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}

func TestCreateMeta(t *testing.T) {
	storetest.RunCreateMeta(t, "sqlite", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}
