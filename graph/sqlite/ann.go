package sqlite

import (
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// Approximate search for large sets.
//
// The exact scan of SearchVector costs time in proportion to the set: about
// 30 ms of CPU at 100k documents of 384 dimensions. From annThreshold
// documents on, a set gets an HNSW index (hnsw.go), built in the
// background from the first search that finds it that large (searches scan
// exactly until it is ready; writes meanwhile are logged and replayed onto
// it) and kept in step with every write after. A search then walks the graph for annEF(limit) candidates that
// pass its filters, orders them by their exact float32 cosine and returns
// the best limit. The walk may miss a true neighbour, so results can differ
// from the exact scan's; BenchmarkANN measures how often (recall of the top
// 100 against the exact scan). Searches the graph serves poorly scan
// exactly instead: those with a time or run filter, those whose filters let
// fewer than limit candidates through, and sets holding vectors of two
// dimensions.

// DefaultANNThreshold is the set size from which SearchVector uses the HNSW
// index by default. Below it the exact scan is cheap (about 25 ms p95 at
// 50k vectors of 384 dimensions on 2 cores) and exact; above it the scan
// grows past the search budget (64 ms at 100k) while the index answers in
// 7–10 ms: on 49,599 real MiniLM vectors (LongMemEval's stores) its top
// 100 held 0.995 of the exact scan's, on 100k clustered vectors 0.996,
// on bench/scale's hashed vectors at 20k 0.98 counting ties at the cut
// (BenchmarkANN here and in bench/scale). The build runs in the
// background after a start, about 5.2 CPU-ms per vector on one core, and
// searches scan exactly until it is ready. SetANNThreshold changes it
// (`lore serve --ann-threshold`).
const DefaultANNThreshold = 50_000

// HNSW parameters: links per node, breadth of the linking search, and the
// least breadth of a query's search.
const (
	annM       = 16
	annEFBuild = 200
	annMinEF   = 200
)

// annEF is the breadth of a query's graph search for limit results: the
// Store's annEFFactor (3 when unset) times limit, at least annMinEF.
func (s *Store) annEF(limit int) int {
	f := int(s.annEFFactor.Load())
	if f <= 0 {
		f = 3
	}
	return max(annMinEF, f*limit)
}

// SetANNBreadth sets how many times the limit an HNSW search walks for
// candidates before the exact rescoring; 0 or less restores the default
// (3). Wider searches find more of the exact top results and cost more
// (BenchmarkANN, bench/scale's BenchmarkANN).
func (s *Store) SetANNBreadth(factor int) { s.annEFFactor.Store(int64(max(factor, 0))) }

// SetANNThreshold sets the set size from which SearchVector uses an
// approximate (HNSW) index; 0 or less turns it off, so every search scans
// exactly.
func (s *Store) SetANNThreshold(n int) { s.annThreshold.Store(int64(n)) }

// searchANN answers q from the set's HNSW index. When the set has grown
// past the threshold and has no index yet, it starts building one in the
// background (startANNBuild) and returns false: the search, and every
// other one until the index is ready, scans exactly, so turning the index
// on never stalls a search. It also returns false when the search should
// scan exactly for its filters.
func (x *Index) searchANN(set *vecSet, query []float32, q lore.IndexQuery, limit int) ([]lore.IndexHit, bool) {
	threshold := int(x.s.annThreshold.Load())
	if threshold <= 0 || q.Since != nil || q.Until != nil || q.Scope.RunID != "" {
		return nil, false
	}
	set.mu.RLock()
	n, ann := len(set.docs), set.ann
	set.mu.RUnlock()
	if n < threshold {
		return nil, false
	}
	if ann == nil {
		set.mu.Lock()
		if set.ann == nil && !set.annBuilding && set.loaded && len(set.docs) >= threshold {
			x.s.startANNBuild(set)
		}
		set.mu.Unlock()
		return nil, false
	}
	set.mu.RLock()
	defer set.mu.RUnlock()
	ann = set.ann
	if ann == nil || ann.mixed || ann.dim != len(query) {
		return nil, false
	}
	match := docMatcher(q)
	found := ann.search(query, x.s.annEF(limit), func(n int32) bool {
		i, ok := set.pos[ann.nodes[n].id]
		return ok && match(&set.docs[i])
	})
	if len(found) < limit {
		return nil, false
	}
	found = found[:limit]
	hits := make([]lore.IndexHit, len(found))
	for i, f := range found {
		d := &set.docs[set.pos[ann.nodes[f.n].id]]
		hits[i] = lore.IndexHit{ID: d.id, Kind: d.kind, Score: dot(query, d.unit)}
	}
	slices.SortFunc(hits, func(a, b lore.IndexHit) int {
		if a.Score != b.Score {
			return cmpDesc(a.Score, b.Score)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return hits, true
}

// annOp is a write to a set made while its index was being built: the
// document's new vector, or its removal (vec nil).
type annOp struct {
	id  string
	vec []float32
}

// annReplayInPlace is the number of logged writes the build applies while
// holding the set's lock; a longer log is applied outside it first, so
// writes never wait for more than that many insertions.
const annReplayInPlace = 256

// startANNBuild builds set's HNSW index in a goroutine from a snapshot of
// its vectors, taken now, under the set's write lock (which the caller
// holds). Writes to the set meanwhile are logged (vecSet.put and drop);
// the build applies the log, the last few entries under the set's lock, and
// installs the index, which from then on follows writes directly. A set
// cleared meanwhile (annGen) discards the build; closing the Store stops it.
// A vector's slice is never written after it is cached, so the snapshot
// shares them.
func (s *Store) startANNBuild(set *vecSet) {
	snap := make([]annOp, len(set.docs))
	for i := range set.docs {
		snap[i] = annOp{set.docs[i].id, set.docs[i].unit}
	}
	set.annBuilding, set.annLog = true, nil
	gen := set.annGen
	s.annWG.Add(1)
	go func() {
		defer s.annWG.Done()
		if s.annBuildHook != nil {
			s.annBuildHook()
		}
		start := time.Now()
		h := newHNSW(annM, annEFBuild, uint64(len(snap)))
		ok := h.apply(snap, s.annStop)
		for ok {
			set.mu.Lock()
			if set.annGen != gen {
				set.mu.Unlock()
				return
			}
			log := set.annLog
			set.annLog = nil
			if len(log) <= annReplayInPlace {
				h.apply(log, nil)
				set.ann, set.annBuilding = h, false
				set.mu.Unlock()
				s.annBuilds.Add(1)
				s.annBuildNanos.Add(int64(time.Since(start)))
				return
			}
			set.mu.Unlock()
			ok = h.apply(log, s.annStop)
		}
		// Stopped by Close: nothing will search the set again.
		set.mu.Lock()
		if set.annGen == gen {
			set.annBuilding, set.annLog = false, nil
		}
		set.mu.Unlock()
	}()
}

// apply inserts (or removes) the logged documents in order. It returns
// false, leaving the index part-built, when stop is closed first.
func (h *hnsw) apply(ops []annOp, stop <-chan struct{}) bool {
	for i, op := range ops {
		if stop != nil && i%256 == 0 {
			select {
			case <-stop:
				return false
			default:
			}
		}
		if op.vec == nil {
			h.remove(op.id)
		} else {
			h.add(op.id, op.vec)
		}
	}
	return true
}

// ANNBuilds returns the number of HNSW indexes the Store has finished
// building in the background since it was opened, and the time they took
// together.
func (s *Store) ANNBuilds() (int64, time.Duration) {
	return s.annBuilds.Load(), time.Duration(s.annBuildNanos.Load())
}
