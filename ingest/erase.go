package ingest

import (
	"context"
	"errors"
	"fmt"

	"github.com/lore-memory/lore"
)

// An erase holds against work already under way. Every write of a job (and
// of an Add) is fenced (lore.WithFence) with the erase sequence read before
// the job reads anything: the store refuses it once an erase covering the
// job's scope is recorded, which DeleteScope does before it deletes. Index
// writes the store cannot fence (Weaviate) are checked after the fact and
// taken back. Erase also stops the scope's jobs running in this process.

// runningJob is a job this process is running.
type runningJob struct {
	scope  lore.Scope
	cancel context.CancelCauseFunc
}

// errJobErased is the cause with which Erase cancels a running job.
var errJobErased = errors.New("ingest: the job's scope was erased")

// fence returns ctx fenced for writes in scope at the tenant's current
// erase sequence, when the store keeps erasures (lore.EraseStore). The
// fenced context ends after lore.FenceMaxAge (cause lore.ErrFenceExpired),
// so that no fenced writer outlives the erasure records it must find
// (lore.ErasureHorizon); the caller calls cancel when done.
func (s *Service) fence(ctx context.Context, scope lore.Scope) (context.Context, context.CancelFunc, error) {
	es, ok := s.Store.(lore.EraseStore)
	if !ok {
		return ctx, func() {}, nil
	}
	seq, err := es.EraseSeq(ctx, scope.TenantID)
	if err != nil {
		return ctx, func() {}, fmt.Errorf("ingest: read erase sequence: %w", err)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, lore.FenceMaxAge, lore.ErrFenceExpired)
	return lore.WithFence(ctx, lore.Fence{Scope: scope, Seq: seq}), cancel, nil
}

// startJob fences a claimed job's context and registers it so that Erase
// can cancel it. done unregisters it and reports whether the job's scope was
// erased under it, in which case its row is gone with the scope and there
// is no outcome to save.
func (s *Service) startJob(ctx context.Context, job *lore.Job) (context.Context, func(error) bool, error) {
	jobCtx, cancel := context.WithCancelCause(ctx)
	s.runningMu.Lock()
	if s.running == nil {
		s.running = map[string]runningJob{}
	}
	s.running[job.ID] = runningJob{scope: job.Scope, cancel: cancel}
	s.runningMu.Unlock()
	fenced, cancelFence, err := s.fence(jobCtx, job.Scope)
	done := func(err error) bool {
		cancelFence()
		s.runningMu.Lock()
		delete(s.running, job.ID)
		s.runningMu.Unlock()
		erased := errors.Is(err, lore.ErrScopeErased) || errors.Is(context.Cause(jobCtx), errJobErased)
		cancel(nil)
		if erased {
			s.logger().Info("ingest: job stopped: its scope was erased", "job", job.ID, "tenant", job.Scope.TenantID)
		}
		return erased
	}
	return fenced, done, err
}

// Erase removes everything the scope holds (a scope naming a tenant alone:
// the whole tenant): it stops the scope's jobs
// running in this process, then deletes from the store (which records the
// erasure first, so that every fenced write of a job still running anywhere
// is refused), then from the index, then from the extractor's caches
// (lore.Forgetter). Queued jobs go with the store's delete.
func (s *Service) Erase(ctx context.Context, scope lore.Scope) (lore.DeleteStats, error) {
	// A scope naming a tenant alone erases that tenant: it must name it,
	// never fall back to the default one.
	if scope.UserID != "" || scope.AgentID != "" || scope.RunID != "" {
		scope = scope.WithDefaults()
	}
	if err := scope.ValidateErase(); err != nil {
		return lore.DeleteStats{}, err
	}
	s.runningMu.Lock()
	for _, j := range s.running {
		if scope.Contains(j.scope) {
			j.cancel(errJobErased)
		}
	}
	s.runningMu.Unlock()
	ctx = Tagged(ctx)
	stats, err := s.Store.DeleteScope(ctx, scope)
	if err != nil {
		return stats, fmt.Errorf("ingest: erase store: %w", err)
	}
	// On failure the store's outbox entry of the erase deletes the
	// documents later; the erase still reports it.
	if err := s.Index.DeleteScope(ctx, scope); err != nil {
		return stats, fmt.Errorf("ingest: erase index: %w", err)
	}
	s.ack(ctx, []string{""})
	if f, ok := s.Extractor.(lore.Forgetter); ok {
		if err := f.Forget(ctx, scope); err != nil {
			return stats, fmt.Errorf("ingest: erase extractor cache: %w", err)
		}
	}
	return stats, nil
}

// checkIndexFence takes back documents just written to the index under a
// fenced context when an erase covering the fence came since: an index that
// is not the store (Weaviate) cannot refuse the write itself. The check runs
// after the write, and the erase deletes from the index after it records
// the erasure, so every document is deleted by one or the other.
func (s *Service) checkIndexFence(ctx context.Context, docs []lore.IndexDoc) error {
	f, ok := lore.FenceFrom(ctx)
	es, isES := s.Store.(lore.EraseStore)
	if !ok || !isES || len(docs) == 0 {
		return nil
	}
	gone, err := es.Erased(ctx, f.Scope, f.Seq)
	if err != nil {
		return fmt.Errorf("ingest: check erase fence: %w", err)
	}
	if !gone {
		return nil
	}
	byScope := map[lore.Scope][]string{}
	for _, d := range docs {
		byScope[d.Scope] = append(byScope[d.Scope], d.ID)
	}
	for sc, ids := range byScope {
		// The deletion must happen even though the job is being cancelled,
		// and the fence would refuse it on an index inside the store.
		if err := s.Index.Delete(lore.WithoutFence(context.WithoutCancel(ctx)), sc, ids); err != nil {
			return fmt.Errorf("ingest: take back index documents of an erased scope: %w", err)
		}
	}
	return lore.ErrScopeErased
}
