package sqlite

import (
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// Approximate search for large sets.
//
// The exact scan of SearchVector costs time in proportion to the set: about
// 30 ms of CPU at 100k documents of 384 dimensions. From annThreshold
// documents on, a set gets an HNSW index (hnsw.go), built on the first
// search that finds it that large (the search waits for the build, and
// holds the set's writes meanwhile) and kept in step with every write
// after. A search then walks the graph for annEF(limit) candidates that
// pass its filters, orders them by their exact float32 cosine and returns
// the best limit. The walk may miss a true neighbour, so results can differ
// from the exact scan's; BenchmarkANN measures how often (recall of the top
// 100 against the exact scan). Searches the graph serves poorly scan
// exactly instead: those with a time or run filter, those whose filters let
// fewer than limit candidates through, and sets holding vectors of two
// dimensions.

// DefaultANNThreshold is the set size from which SearchVector uses the HNSW
// index by default: 0, off. On 20k clustered 384-dimension vectors
// (BenchmarkANN) its top 100 held 0.924 of the exact scan's at the default
// breadth (0.977 at 6×, 0.997 at 12× the limit) and its p95 was no better
// than the exact scan's (6.5 / 11.0 / 17.2 ms against 6.9 ms). At 100k it
// held 0.996 at 3× with p95 11.5 ms against 30.9 ms, but the build (466 s)
// runs inside the first search, so it stays off; SetANNThreshold turns it on.
const DefaultANNThreshold = 0

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

// SetANNThreshold sets the set size from which SearchVector uses an
// approximate (HNSW) index; 0 or less turns it off, so every search scans
// exactly.
func (s *Store) SetANNThreshold(n int) { s.annThreshold.Store(int64(n)) }

// searchANN answers q from the set's HNSW index, building it first when
// the set has grown past the threshold. It returns false when the search
// should scan exactly instead.
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
		if set.ann == nil && set.loaded && len(set.docs) >= threshold {
			set.ann = buildANN(set.docs)
		}
		set.mu.Unlock()
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

// buildANN indexes docs in order, so the same set always builds the same
// graph.
func buildANN(docs []vecDoc) *hnsw {
	h := newHNSW(annM, annEFBuild, uint64(len(docs)))
	for i := range docs {
		h.add(docs[i].id, docs[i].unit)
	}
	return h
}
