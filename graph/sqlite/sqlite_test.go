package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/storetest"
)

// mustOpen opens a store in a fresh temporary directory and closes it when
// the test ends.
func mustOpen(tb testing.TB) *sqlite.Store {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "lore.db"))
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return st
}

// mustIndex opens a store and returns its index view, closing both at the
// end of the test.
func mustIndex(tb testing.TB) *sqlite.Index {
	tb.Helper()
	idx := mustOpen(tb).Index()
	tb.Cleanup(func() {
		if err := idx.Close(); err != nil {
			tb.Errorf("Index.Close: %v", err)
		}
	})
	return idx
}

func TestStore(t *testing.T) {
	storetest.RunStore(t, "sqlite", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}

func TestIndex(t *testing.T) {
	storetest.RunIndex(t, "sqlite", func(tb testing.TB) lore.Index { return mustIndex(tb) })
}
