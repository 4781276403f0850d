package crypt_test

import (
	"context"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/index/weaviate"
	"github.com/lore-memory/lore/storetest"
)

// TestWeaviateIndexConformance runs the index suite on Weaviate through the
// blind index (the data keys live in an embedded store's settings). It needs
// LORE_TEST_WEAVIATE_URL (scripts/weaviate/start.sh).
func TestWeaviateIndexConformance(t *testing.T) {
	url := storetest.ServerURL(t, "LORE_TEST_WEAVIATE_URL", "start a server with `scripts/weaviate/install.sh && scripts/weaviate/start.sh` and export the LORE_TEST_WEAVIATE_URL it prints")
	key := master(t)
	storetest.RunIndex(t, "weaviate+crypt", func(tb testing.TB) lore.Index {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		w, err := weaviate.Open(ctx, weaviate.Config{URL: url})
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() { w.Close() })
		meta, err := sqlite.Open(ctx, tb.TempDir()+"/keys.db")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { meta.Close() })
		kr, err := crypt.NewKeyring(meta, key)
		if err != nil {
			tb.Fatal(err)
		}
		return crypt.NewIndex(w, kr)
	})
}
