package retention

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
)

// TestSweeperPrunesErasuresWithInjectedClock: an erase's record stays
// while the injected clock is within lore.ErasureHorizon of it, and still
// refuses a writer fenced before the erase; once the clock is past the
// horizon a pass prunes it, and a later erase of the same user is still
// numbered above every fence read before, so it still refuses them.
func TestSweeperPrunesErasuresWithInjectedClock(t *testing.T) {
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	now := time.Now().UTC()
	sw := &Sweeper{Store: st, Meta: st, Erasures: st, Now: func() time.Time { return now }}
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}

	before, err := st.EraseSeq(ctx, alice.TenantID)
	if err != nil {
		t.Fatal(err)
	}
	old := lore.WithFence(ctx, lore.Fence{Scope: alice, Seq: before})
	if _, err := st.DeleteScope(ctx, alice); err != nil {
		t.Fatalf("DeleteScope: %v", err)
	}
	erased, err := st.EraseSeq(ctx, alice.TenantID)
	if err != nil {
		t.Fatal(err)
	}

	// A day on: within the horizon, nothing is pruned and the fence holds.
	now = now.Add(24 * time.Hour)
	rep, err := sw.Sweep(ctx)
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	if rep.ErasuresPruned != 0 {
		t.Fatalf("a day after the erase: pruned %d erasure records, want 0", rep.ErasuresPruned)
	}
	if err := st.AddEpisodes(old, []*lore.Episode{{Scope: alice, Role: "user", Content: "late write", OccurredAt: now}}); !errors.Is(err, lore.ErrScopeErased) {
		t.Fatalf("write fenced before the erase, a day on: err=%v, want lore.ErrScopeErased", err)
	}

	// Past the horizon: the record goes.
	now = now.Add(lore.ErasureHorizon)
	if rep, err = sw.Sweep(ctx); err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	if rep.ErasuresPruned != 1 {
		t.Fatalf("past the horizon: pruned %d erasure records, want 1", rep.ErasuresPruned)
	}
	if gone, err := st.Erased(ctx, alice, before); err != nil || gone {
		t.Fatalf("Erased after pruning = %v, %v; want false (the record is gone)", gone, err)
	}
	// A later erase numbers above the fences read before the prune.
	if _, err := st.DeleteScope(ctx, alice); err != nil {
		t.Fatalf("DeleteScope again: %v", err)
	}
	for _, seq := range []int64{before, erased} {
		if gone, err := st.Erased(ctx, alice, seq); err != nil || !gone {
			t.Errorf("Erased(fence %d) after a second erase = %v, %v; want true", seq, gone, err)
		}
	}

	// A horizon shorter than a fence may live is refused.
	sw.ErasureHorizon = time.Hour
	if _, err := sw.Sweep(ctx); lore.ErrorCode(err) != lore.EINVALID {
		t.Errorf("Sweep with a 1 h horizon: err=%v, want EINVALID", err)
	}
}
