package sqlite

import (
	"math"
	"math/rand/v2"
	"slices"
)

// An approximate nearest-neighbour index (HNSW: Malkov and Yashunin,
// "Efficient and robust approximate nearest neighbor search using
// Hierarchical Navigable Small World graphs", 2016), written for the vector
// cache: a cached set at least Store.annThreshold documents large gets one
// on its first search, and SearchVector asks it for candidates instead of
// scanning every document (see SearchVector). Vectors are unit length, so
// similarity is their dot product; the scores the index reports are those
// exact float32 dot products, so its candidates need no further rescoring
// beyond ordering.
//
// Nodes are never removed: a deleted or replaced document's node is marked
// dead and still routes searches, but is never returned. The owner rebuilds
// the index when dead nodes are the majority (vecSet.annStale).
//
// An hnsw is not safe for concurrent writes; searches may run concurrently
// with each other (the vector set's RWMutex orders them with writes).
type hnsw struct {
	m, m0    int // links per node above level 0, and at level 0
	efBuild  int // candidates kept while linking a new node
	ml       float64
	rng      *rand.Rand
	nodes    []hnode
	byID     map[string]int32 // live node of each document id
	entry    int32
	maxLevel int
	dead     int
	// dim is the vectors' length, set by the first; a vector of another
	// length makes the index mixed, and a mixed index is not searched
	// (SearchVector scans instead).
	dim   int
	mixed bool
}

type hnode struct {
	id    string
	vec   []float32
	links [][]int32 // per level, 0 first
	dead  bool
}

// newHNSW returns an empty index. m is the number of links per node (twice
// that at level 0) and efBuild the breadth of the search that links a new
// node; seed makes the level draws, and so the graph, reproducible.
func newHNSW(m, efBuild int, seed uint64) *hnsw {
	return &hnsw{m: m, m0: 2 * m, efBuild: efBuild, ml: 1 / math.Log(float64(m)),
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), byID: map[string]int32{}, entry: -1}
}

// live is the number of nodes searches may return.
func (h *hnsw) live() int { return len(h.nodes) - h.dead }

// remove marks the document's node dead.
func (h *hnsw) remove(id string) {
	if n, ok := h.byID[id]; ok {
		h.nodes[n].dead = true
		h.dead++
		delete(h.byID, id)
	}
}

// add inserts a document's unit vector, replacing its earlier one.
func (h *hnsw) add(id string, vec []float32) {
	h.remove(id)
	if h.dim == 0 {
		h.dim = len(vec)
	}
	if len(vec) != h.dim {
		h.mixed = true
		return
	}
	level := int(math.Floor(-math.Log(1-h.rng.Float64()) * h.ml))
	n := int32(len(h.nodes))
	h.nodes = append(h.nodes, hnode{id: id, vec: vec, links: make([][]int32, level+1)})
	h.byID[id] = n
	if h.entry < 0 {
		h.entry, h.maxLevel = n, level
		return
	}
	ep := h.entry
	epSim := dot(vec, h.nodes[ep].vec)
	for l := h.maxLevel; l > level; l-- {
		ep, epSim = h.greedy(vec, ep, epSim, l)
	}
	for l := min(level, h.maxLevel); l >= 0; l-- {
		found := h.searchLayer(vec, []simNode{{epSim, ep}}, h.efBuild, l, nil)
		limit := h.m
		if l == 0 {
			limit = h.m0
		}
		links := h.selectNeighbors(found, limit)
		h.nodes[n].links[l] = links
		for _, nb := range links {
			h.link(nb, n, l, limit)
		}
		ep, epSim = found[0].n, found[0].sim
	}
	if level > h.maxLevel {
		h.entry, h.maxLevel = n, level
	}
}

// link adds to to from's links at level l; past limit it chooses from's
// links again with selectNeighbors' heuristic. Keeping just the limit most
// similar instead (no dot products between the candidates, so a build
// about twice as fast) let clusters link only inside themselves, and
// searches from outside missed them: on 4,000 clustered vectors the top
// 50 held 0.80 of the exact scan's at annMinEF (0.71 when each vector had
// five copies, as templated text under a bag-of-words embedder gives),
// against 0.985 and 0.964 with the heuristic (TestHNSWClusteredRecall).
func (h *hnsw) link(from, to int32, l, limit int) {
	node := &h.nodes[from]
	node.links[l] = append(node.links[l], to)
	if len(node.links[l]) <= limit {
		return
	}
	cands := make([]simNode, len(node.links[l]))
	for i, c := range node.links[l] {
		cands[i] = simNode{dot(node.vec, h.nodes[c].vec), c}
	}
	slices.SortFunc(cands, bySimDesc)
	node.links[l] = append(node.links[l][:0], h.selectNeighbors(cands, limit)...)
}

// selectNeighbors picks up to limit links from candidates sorted most
// similar first with the paper's heuristic: a candidate is kept when it is
// closer to the new node than to every one kept so far, which spreads the
// links over directions; the room left is filled with the closest of the
// rest.
func (h *hnsw) selectNeighbors(cands []simNode, limit int) []int32 {
	out := make([]int32, 0, limit)
	var pruned []int32
	for _, c := range cands {
		if len(out) == limit {
			break
		}
		keep := true
		for _, o := range out {
			if dot(h.nodes[c.n].vec, h.nodes[o].vec) > c.sim {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c.n)
		} else {
			pruned = append(pruned, c.n)
		}
	}
	for _, p := range pruned {
		if len(out) == limit {
			break
		}
		out = append(out, p)
	}
	return out
}

// greedy walks level l from ep to the node most similar to q.
func (h *hnsw) greedy(q []float32, ep int32, epSim float64, l int) (int32, float64) {
	for changed := true; changed; {
		changed = false
		for _, nb := range h.nodes[ep].links[l] {
			if s := dot(q, h.nodes[nb].vec); s > epSim {
				ep, epSim, changed = nb, s, true
			}
		}
	}
	return ep, epSim
}

// search returns up to ef live nodes accepted by accept (nil: all), most
// similar to the unit vector q first.
func (h *hnsw) search(q []float32, ef int, accept func(n int32) bool) []simNode {
	if h.entry < 0 {
		return nil
	}
	ep := h.entry
	epSim := dot(q, h.nodes[ep].vec)
	for l := h.maxLevel; l > 0; l-- {
		ep, epSim = h.greedy(q, ep, epSim, l)
	}
	return h.searchLayer(q, []simNode{{epSim, ep}}, ef, 0, func(n int32) bool {
		return !h.nodes[n].dead && (accept == nil || accept(n))
	})
}

// searchLayer is the paper's SEARCH-LAYER: a best-first walk of level l
// from eps that keeps the ef most similar nodes found. With keep set, only
// the nodes it accepts are kept as results, but every node routes the walk
// (so a filter or dead nodes do not cut the graph). The result is sorted
// most similar first.
func (h *hnsw) searchLayer(q []float32, eps []simNode, ef, l int, keep func(n int32) bool) []simNode {
	visited := make([]uint64, (len(h.nodes)+63)/64)
	seen := func(n int32) bool {
		w, b := n/64, uint64(1)<<(n%64)
		if visited[w]&b != 0 {
			return true
		}
		visited[w] |= b
		return false
	}
	var cands simHeap // max-heap: the most similar unexplored first
	var found simHeap // min-heap of kept results: the least similar on top
	found.min = true
	worst := math.Inf(-1) // the least similarity a result must beat once found is full
	for _, e := range eps {
		seen(e.n)
		cands.push(e)
		if keep == nil || keep(e.n) {
			found.push(e)
		}
	}
	if found.len() >= ef {
		worst = found.top().sim
	}
	for cands.len() > 0 {
		c := cands.pop()
		if c.sim < worst {
			break
		}
		for _, nb := range h.nodes[c.n].links[l] {
			if seen(nb) {
				continue
			}
			s := dot(q, h.nodes[nb].vec)
			if found.len() >= ef && s <= worst {
				continue
			}
			cands.push(simNode{s, nb})
			if keep == nil || keep(nb) {
				found.push(simNode{s, nb})
				if found.len() > ef {
					found.pop()
				}
				if found.len() >= ef {
					worst = found.top().sim
				}
			}
		}
	}
	out := found.items
	slices.SortFunc(out, bySimDesc)
	return out
}

// simNode is a node and its similarity to the query.
type simNode struct {
	sim float64
	n   int32
}

func bySimDesc(a, b simNode) int {
	if a.sim != b.sim {
		return cmpDesc(a.sim, b.sim)
	}
	return int(a.n - b.n)
}

// simHeap is a binary heap of simNodes: most similar on top, or least
// similar when min is set.
type simHeap struct {
	items []simNode
	min   bool
}

func (h *simHeap) len() int     { return len(h.items) }
func (h *simHeap) top() simNode { return h.items[0] }
func (h *simHeap) less(i, j int) bool {
	if h.min {
		return h.items[i].sim < h.items[j].sim
	}
	return h.items[i].sim > h.items[j].sim
}

func (h *simHeap) push(x simNode) {
	h.items = append(h.items, x)
	for i := len(h.items) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *simHeap) pop() simNode {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	for i := 0; ; {
		l, r, best := 2*i+1, 2*i+2, i
		if l < last && h.less(l, best) {
			best = l
		}
		if r < last && h.less(r, best) {
			best = r
		}
		if best == i {
			break
		}
		h.items[i], h.items[best] = h.items[best], h.items[i]
		i = best
	}
	return top
}
