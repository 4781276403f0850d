package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// MetaCreator is the store method that sets a setting only once
// (crypt's data keys need it); graph/sqlite and graph/neo4j have it.
type MetaCreator interface {
	CreateMeta(ctx context.Context, key, value string) (string, error)
}

// RunCreateMeta checks that concurrent CreateMeta calls of one key agree on
// the first value stored, and that it does not overwrite.
func RunCreateMeta(t *testing.T, backend string, open func(testing.TB) lore.Store) {
	t.Helper()
	st := open(t)
	mc, ok := st.(MetaCreator)
	if !ok {
		t.Fatalf("%s: the store has no CreateMeta", backend)
	}
	s := suite{t: t, backend: backend}
	s.run("Meta/CreateOnce", func(t *testing.T) {
		key := "storetest.create." + uuid.NewString()
		var wg sync.WaitGroup
		got := make([]string, 8)
		errs := make([]error, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = mc.CreateMeta(context.Background(), key, uuid.NewString())
			}()
		}
		wg.Wait()
		for i := range got {
			must(t, "CreateMeta", errs[i])
			if got[i] != got[0] {
				t.Fatalf("concurrent CreateMeta returned %q and %q, want one value", got[0], got[i])
			}
		}
		stored, err := st.GetMeta(ctxFor(t), key)
		must(t, "GetMeta", err)
		if stored != got[0] {
			t.Errorf("GetMeta=%q, want %q", stored, got[0])
		}
		again, err := mc.CreateMeta(ctxFor(t), key, "other")
		must(t, "CreateMeta again", err)
		if again != got[0] {
			t.Errorf("CreateMeta over a set key=%q, want the first value kept", again)
		}
	})
}
