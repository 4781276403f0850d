// Package sqlitetest opens embedded stores for other packages' tests. The
// sqlite package's own tests cannot import it (it imports sqlite) and keep
// their own helper.
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore/graph/sqlite"
)

// Open opens a store in a fresh file under tb.TempDir() and its index
// view; both close when the test ends, and a failed close fails it.
func Open(tb testing.TB) (*sqlite.Store, *sqlite.Index) {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "lore.db"))
	if err != nil {
		tb.Fatalf("sqlite.Open: %v", err)
	}
	idx := st.Index()
	tb.Cleanup(func() {
		if err := idx.Close(); err != nil {
			tb.Errorf("sqlite Index.Close: %v", err)
		}
		if err := st.Close(); err != nil {
			tb.Errorf("sqlite Close: %v", err)
		}
	})
	return st, idx
}
