package storetest

import (
	"testing"

	"github.com/lore-memory/lore"
)

// RunStore runs the conformance suite for lore.Store against one backend.
// open is called once; it returns a ready store and registers its own
// cleanup with tb.Cleanup. Every subtest is named backend/Area/Case.
func RunStore(t *testing.T, backend string, open func(testing.TB) lore.Store) {
	t.Helper()
	st := open(t)
	s := suite{t: t, backend: backend}
	runEpisodes(s, st)
	runEntities(s, st)
	runFacts(s, st)
	runNeighborhood(s, st)
	runScopes(s, st)
	runJobs(s, st)
	runMeta(s, st)
	runErase(s, st)
}

// RunIndex runs the conformance suite for lore.Index against one backend.
// open is called once; it returns a ready index and registers its own
// cleanup with tb.Cleanup. Every subtest is named backend/Index/Case.
func RunIndex(t *testing.T, backend string, open func(testing.TB) lore.Index) {
	t.Helper()
	idx := open(t)
	s := suite{t: t, backend: backend}
	runIndex(s, idx)
	runCJKFold(s, idx)
}
