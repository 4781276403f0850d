package neo4j

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.EraseStore = (*Store)(nil)

// checkFence runs LockFence and CheckFence first in a write made under a
// fenced context (lore.WithFence), and refuses the write with
// lore.ErrScopeErased when an erase covering the fence's scope came after
// it or is in progress. The check takes the tenant's fence lock, so fenced
// writes of one tenant commit one at a time; unfenced writes take no lock.
func (r txRunner) checkFence() error {
	f, ok := lore.FenceFrom(r.ctx)
	if !ok {
		return nil
	}
	params := map[string]any{
		"fence_tenant_id": f.Scope.TenantID, "fence_user_id": f.Scope.UserID,
		"fence_agent_id": f.Scope.AgentID, "fence_run_id": f.Scope.RunID, "fence_seq": f.Seq,
	}
	// Two statements, so the erasures are read only once the lock is held.
	if _, err := r.run("LockFence", shape{}, params); err != nil {
		return err
	}
	recs, err := r.run("CheckFence", shape{}, params)
	if err != nil {
		return err
	}
	if n, _ := recs[0].Get("erased"); n.(int64) > 0 {
		return lore.ErrScopeErased
	}
	return nil
}

// recordErasure records an erase of scope in progress and returns its
// sequence number.
func (s *Store) recordErasure(ctx context.Context, scope lore.Scope) (int64, error) {
	params := scopeParams(scope)
	params["now"] = s.now().UTC()
	return write(ctx, s, "record erasure", func(r txRunner) (int64, error) {
		recs, err := r.run("RecordErasure", shape{}, params)
		if err != nil {
			return 0, err
		}
		// The index documents go too, by the erase itself or, if that
		// fails, by the outbox worker.
		if err := r.outbox(lore.OutboxEntry{Scope: scope, Kind: lore.KindScope}); err != nil {
			return 0, err
		}
		seq, _ := recs[0].Get("seq")
		return seq.(int64), nil
	})
}

// finishErasure marks the erasures of scope up to seq done.
func (s *Store) finishErasure(ctx context.Context, scope lore.Scope, seq int64) error {
	params := scopeParams(scope)
	params["seq"] = seq
	_, err := write(ctx, s, "finish erasure", func(r txRunner) (struct{}, error) {
		_, err := r.run("FinishErasure", shape{}, params)
		return struct{}{}, err
	})
	return err
}

// EraseSeq returns the sequence number of the tenant's latest erase, 0 when
// there was none; while erases are in progress, the one before the oldest
// of them (their batches still leave records to be read).
//
// It reads under the tenant's fence lock (LockFenceToRead), in a write
// transaction: Neo4j's reads take no locks and may see a commit's changes
// one record at a time, so a lock-free read could see RecordErasure's new
// number on the fence node before the erasure it creates, and hand a job a
// fence past an erase whose deletes have not run yet (the job would then
// load the erased records and write what it drew from them).
// RecordErasure holds the same lock until its commit is applied, so under
// the lock the number and the erasure are seen together.
func (s *Store) EraseSeq(ctx context.Context, tenantID string) (int64, error) {
	// The read is not itself a fenced write: a caller's fence must not
	// refuse it.
	return write(lore.WithoutFence(ctx), s, "erase seq", func(r txRunner) (int64, error) {
		if _, err := r.run("LockFenceToRead", shape{}, map[string]any{"fence_tenant_id": tenantID}); err != nil {
			return 0, err
		}
		recs, err := r.run("EraseSeq", shape{}, map[string]any{"tenant_id": tenantID})
		if err != nil {
			return 0, err
		}
		seq, _ := recs[0].Get("seq")
		return seq.(int64), nil
	})
}

// Erased reports whether an erase covering scope was recorded after seq, or
// is still in progress.
func (s *Store) Erased(ctx context.Context, scope lore.Scope, seq int64) (bool, error) {
	params := scopeParams(scope)
	params["seq"] = seq
	return read(ctx, s, "erased", func(r txRunner) (bool, error) {
		recs, err := r.run("Erased", shape{}, params)
		if err != nil {
			return false, err
		}
		n, _ := recs[0].Get("erased")
		return n.(int64) > 0, nil
	})
}

// DeleteMetaPrefix removes every setting whose key starts with prefix, in
// batches.
func (s *Store) DeleteMetaPrefix(ctx context.Context, prefix string) (int, error) {
	if prefix == "" {
		return 0, lore.Errorf(lore.EINVALID, "prefix is required")
	}
	total := 0
	for {
		n, err := write(ctx, s, "delete meta prefix", func(r txRunner) (int64, error) {
			recs, err := r.run("DeleteMetaPrefix", shape{}, map[string]any{"prefix": prefix, "batch": int64(s.deleteBatch)})
			if err != nil {
				return 0, err
			}
			n, _ := recs[0].Get("deleted")
			return n.(int64), nil
		})
		if err != nil {
			return total, err
		}
		total += int(n)
		if n < int64(s.deleteBatch) {
			return total, nil
		}
	}
}

var _ lore.ErasurePruner = (*Store)(nil)

// PruneErasures deletes, in batches, the erasures of finished erases
// recorded before before.
func (s *Store) PruneErasures(ctx context.Context, before time.Time) (int, error) {
	total := 0
	for {
		n, err := write(lore.WithoutFence(ctx), s, "prune erasures", func(r txRunner) (int64, error) {
			recs, err := r.run("PruneErasures", shape{}, map[string]any{"before": before.UTC(), "batch": int64(s.deleteBatch)})
			if err != nil {
				return 0, err
			}
			n, _ := recs[0].Get("deleted")
			return n.(int64), nil
		})
		if err != nil {
			return total, err
		}
		total += int(n)
		if n < int64(s.deleteBatch) {
			return total, nil
		}
	}
}
