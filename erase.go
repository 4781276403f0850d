package lore

import (
	"context"
	"errors"
	"time"
)

// ErrScopeErased is returned by a fenced write (see WithFence) when the
// scope it writes to was erased after the writer read its fence, or is being
// erased now: the write is refused so that an erase holds against work that
// was already under way.
var ErrScopeErased = &Error{Code: ECONFLICT, Message: "the scope was erased while this write was in flight"}

// Fence is what a writer knew of erasures when it started: the sequence
// number of its tenant's latest erase (EraseStore.EraseSeq), and the scope it
// writes in.
type Fence struct {
	Scope Scope
	Seq   int64
}

type fenceKey struct{}

// WithFence returns a context whose store writes are fenced: every write a
// store makes under it first checks, in the write's own transaction, that no
// erase covering f.Scope was recorded after f.Seq (and none is in progress),
// and returns ErrScopeErased otherwise. A background job reads its fence
// before it reads anything else, so anything it loaded predates every erase
// that could fence it.
func WithFence(ctx context.Context, f Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

// WithoutFence returns ctx with no fence, for the clean-up a fenced writer
// does once it learns its scope was erased.
func WithoutFence(ctx context.Context) context.Context {
	return context.WithValue(ctx, fenceKey{}, nil)
}

// FenceFrom returns the fence of ctx, if it has one.
func FenceFrom(ctx context.Context) (Fence, bool) {
	f, ok := ctx.Value(fenceKey{}).(Fence)
	return f, ok
}

// FenceMaxAge bounds how long a fenced writer may go on writing: the
// context a fence is taken in (ingest's jobs, adds and reindexes) ends
// after it, with ErrFenceExpired as its cause. It is what makes pruning
// erasure records safe: a writer whose fence predates an erasure must find
// that erasure when it checks, so no record is pruned before every such
// writer has ended (ErasureHorizon).
const FenceMaxAge = 24 * time.Hour

// ErasureHorizon is how old a finished erasure record must be before it is
// pruned (ErasurePruner): well past FenceMaxAge, so no fenced writer that
// started before the erase is still running, and past a job's lease (30 s
// by default) and retry window (each run of a job reads a fresh fence).
const ErasureHorizon = 7 * 24 * time.Hour

// ErrFenceExpired is the cause with which a fenced context ends once it is
// FenceMaxAge old. A job that meets it fails its run and runs again later
// under a fresh fence.
var ErrFenceExpired = errors.New("the erase fence of this work is older than lore.FenceMaxAge")

// ErasurePruner is implemented by stores whose erasure records can be
// pruned (graph/sqlite and graph/neo4j; storetest's Erase tests cover
// both). PruneErasures removes the records of finished erases recorded
// before before, never one still in progress, and returns how many it
// removed; EraseSeq and the fence checks stay correct without them, since
// no writer that could be refused by them is still running (ErasureHorizon).
type ErasurePruner interface {
	PruneErasures(ctx context.Context, before time.Time) (int, error)
}

// Erasure is the record an erase leaves (EraseStore): which scope was erased,
// in which order. It holds ids, never content.
type Erasure struct {
	Seq   int64
	Scope Scope
}

// Covers reports whether an erase of e.Scope removes records written under
// w: e's scope Contains w, read as an erase reads. An erase naming a run
// covers only that run's writes.
func (e Erasure) Covers(w Scope) bool {
	return e.Scope.Contains(w)
}

// EraseStore is the part of the primary store that makes an erase hold.
// Implementations: graph/sqlite and graph/neo4j, covered by storetest's
// Erase tests. A store implementing it records an erasure in DeleteScope
// before (or atomically with) deleting anything.
type EraseStore interface {
	// EraseSeq returns the sequence number a writer starting now fences
	// itself with: the tenant's latest erase, 0 when there was none, or,
	// while erases are in progress, one below the oldest of them.
	EraseSeq(ctx context.Context, tenantID string) (int64, error)
	// Erased reports whether an erase covering scope was recorded after
	// seq, or is still in progress.
	Erased(ctx context.Context, scope Scope, seq int64) (bool, error)
	// DeleteMetaPrefix removes every setting whose key starts with prefix
	// (caches keyed by scope) and returns how many it removed.
	DeleteMetaPrefix(ctx context.Context, prefix string) (int, error)
}

// Forgetter is implemented by what keeps data derived from a scope outside
// the stores, such as an extractor's reply cache: Forget drops everything it
// holds for the scope (and may drop more). An erase calls it.
type Forgetter interface {
	Forget(ctx context.Context, scope Scope) error
}
