package sqlite

import (
	"container/heap"
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lore-memory/lore"
)

// The vector cache.
//
// SearchVector is an exact cosine scan. Reading and decoding every blob
// from SQLite on each query would dominate its cost, so the Store keeps, per
// (tenant, user) and per (tenant, agent) in use, the unit vectors of its
// documents in memory, in float32 and as int8 with an error bound (the scan
// reads the int8 copy and rescores exactly in float32 only what the bound
// cannot rule out). A set is loaded on its first search, or for a user set
// its user's first write, and then kept in step with every Upsert, Delete
// and DeleteScope, which update it after their transaction commits and
// while Store.indexMu still orders them. Memory: about 5×dim bytes per
// document of each loaded set plus vecDocOverhead (2.1 KiB at 384
// dimensions, 210 MiB for a user with 100k documents), and vecSetOverhead
// per set. The cache
// holds at most DefaultVectorCacheBytes (see SetVectorCacheBytes): loading a
// set evicts the least recently used others until the total fits. A
// single set larger than the bound is still kept while in use. A set found
// empty when loaded (a search of a user with no documents yet) is not kept,
// so searches of many such users hold no memory. Loading on
// write (see warm) means a user's first search after writing finds the set
// in memory.

// DefaultVectorCacheBytes bounds the vectors the cache holds in memory.
const DefaultVectorCacheBytes = 1 << 30

// vecDocOverhead is a cached document's memory besides its vectors (the
// vecDoc itself, its id and its entry in the set's position map), and
// vecSetOverhead a set's own, so that the bound counts what the cache holds
// and not its vectors alone.
const (
	vecDocOverhead = 200
	vecSetOverhead = 512
)

// SetVectorCacheBytes changes the bound on the vector cache and evicts
// least recently used sets until the cache fits it.
func (s *Store) SetVectorCacheBytes(n int64) {
	c := s.vectors
	c.mu.Lock()
	defer c.mu.Unlock()
	c.limit = n
	c.evict(nil)
}

// vecKey names one cached set: a user's documents (agent empty) or an
// agent's own documents, those stored with no user (user empty).
type vecKey struct{ tenant, user, agent string }

// readKey returns the set that holds every document visible to a read
// under sc. Validate guarantees a user or an agent.
func readKey(sc lore.Scope) vecKey {
	if sc.UserID != "" {
		return vecKey{tenant: sc.TenantID, user: sc.UserID}
	}
	return vecKey{tenant: sc.TenantID, agent: sc.AgentID}
}

// docKeys returns the set a document of (tenant, user, agent) belongs to:
// its user's, or, for an agent's own document (no user), its agent's. A
// user's document never joins the agent's set, so agent-only reads neither
// return it nor count it in their BM25 statistics.
func docKeys(tenant, user, agent string) []vecKey {
	switch {
	case user != "":
		return []vecKey{{tenant: tenant, user: user}}
	case agent != "":
		return []vecKey{{tenant: tenant, agent: agent}}
	}
	return nil
}

// vecDoc is one cached document.
type vecDoc struct {
	id               string
	kind             lore.DocKind
	user, agent, run string
	time             int64
	unit             []float32 // the vector scaled to length 1
	// q8 is unit quantized to int8 (unit ≈ q8·q8scale) and q8err is the
	// norm of the difference. See SearchVector.
	q8      []int8
	q8scale float64
	q8err   float64
}

// newVecDoc returns a cached document for a vector, or false when the
// vector is empty or zero.
func newVecDoc(id string, kind lore.DocKind, user, agent, run string, time int64, v []float32) (vecDoc, bool) {
	unit := unitVector(v)
	if unit == nil {
		return vecDoc{}, false
	}
	q8, scale, q8err := quantize(unit)
	return vecDoc{id: id, kind: kind, user: user, agent: agent, run: run, time: time, unit: unit,
		q8: q8, q8scale: scale, q8err: q8err}, true
}

// size is the document's share of the cache in bytes.
func (d *vecDoc) size() int64 { return 5*int64(len(d.unit)) + vecDocOverhead }

// vecSet is the cached documents of one vecKey.
type vecSet struct {
	mu     sync.RWMutex
	loaded bool
	docs   []vecDoc
	pos    map[string]int // id → index in docs

	bytes atomic.Int64 // the vectors' size, read by eviction
	used  int64        // the cache's tick at the last search; guarded by vectorCache.mu

	// ann is the set's HNSW index once a search found the set at least
	// Store.annThreshold large and its background build finished (see
	// ann.go); kept in step by put and drop. While annBuilding, put and drop
	// log their writes in annLog for the build to replay; annGen changes
	// when the set is cleared, so a build of its old contents is dropped.
	ann         *hnsw
	annBuilding bool
	annLog      []annOp
	annGen      uint64
}

// put adds or replaces a document.
func (v *vecSet) put(d vecDoc) {
	if v.ann != nil {
		v.ann.add(d.id, d.unit)
	}
	if v.annBuilding {
		v.annLog = append(v.annLog, annOp{d.id, d.unit})
	}
	v.bytes.Add(d.size())
	if i, ok := v.pos[d.id]; ok {
		v.bytes.Add(-v.docs[i].size())
		v.docs[i] = d
		return
	}
	v.pos[d.id] = len(v.docs)
	v.docs = append(v.docs, d)
}

// drop removes a document, moving the last one into its place.
func (v *vecSet) drop(id string) {
	i, ok := v.pos[id]
	if !ok {
		return
	}
	if v.ann != nil {
		v.ann.remove(id)
		if v.ann.dead > v.ann.live() {
			v.ann = nil // rebuilt by the next search that wants it
		}
	}
	if v.annBuilding {
		v.annLog = append(v.annLog, annOp{id: id})
	}
	v.bytes.Add(-v.docs[i].size())
	last := len(v.docs) - 1
	if i != last {
		v.docs[i] = v.docs[last]
		v.pos[v.docs[i].id] = i
	}
	v.docs[last] = vecDoc{}
	v.docs = v.docs[:last]
	delete(v.pos, id)
}

// vectorCache holds the loaded sets.
type vectorCache struct {
	mu    sync.Mutex
	sets  map[vecKey]*vecSet
	limit int64 // bytes
	tick  int64 // counts searches and writes, for least-recently-used eviction
}

func newVectorCache() *vectorCache {
	return &vectorCache{sets: map[vecKey]*vecSet{}, limit: DefaultVectorCacheBytes}
}

// evict drops least recently used sets other than keep until the
// cache fits its limit. The caller holds c.mu. A search still holding a
// dropped set finishes on it; the next one loads afresh.
func (c *vectorCache) evict(keep *vecSet) {
	var total int64
	for _, set := range c.sets {
		total += set.bytes.Load() + vecSetOverhead
	}
	for total > c.limit {
		var (
			oldKey vecKey
			old    *vecSet
		)
		for k, set := range c.sets {
			if set != keep && (old == nil || set.used < old.used) {
				oldKey, old = k, set
			}
		}
		if old == nil {
			return
		}
		delete(c.sets, oldKey)
		total -= old.bytes.Load() + vecSetOverhead
	}
}

// loadedSet returns the set for key if it exists and is loaded.
func (c *vectorCache) loadedSet(key vecKey) *vecSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sets[key]
}

// remove drops documents from every set that may hold them.
func (c *vectorCache) remove(refs []docRef) {
	for _, r := range refs {
		for _, k := range docKeys(r.tenant, r.user, r.agent) {
			if set := c.loadedSet(k); set != nil {
				set.mu.Lock()
				if set.loaded {
					set.drop(r.id)
				}
				set.mu.Unlock()
			}
		}
	}
}

// add puts documents with a usable vector into every loaded set they
// belong to. A set not loaded yet will read them from the database.
func (c *vectorCache) add(docs []lore.IndexDoc) {
	for _, d := range docs {
		vd, ok := newVecDoc(d.ID, d.Kind, d.Scope.UserID, d.Scope.AgentID, d.Scope.RunID, micros(d.Time), d.Vector)
		if !ok {
			continue
		}
		for _, k := range docKeys(d.Scope.TenantID, d.Scope.UserID, d.Scope.AgentID) {
			if set := c.loadedSet(k); set != nil {
				set.mu.Lock()
				if set.loaded {
					set.put(vd)
				}
				set.mu.Unlock()
			}
		}
	}
}

// warm loads, after a write has committed and released Store.indexMu, the
// sets of the users whose documents it wrote, and marks them used: the
// write pays for the load (once per set, and for a new user next to
// nothing) instead of the user's next search, which is the one a caller
// waits on. Agent sets span every
// user of the agent and are left to their first search. A failed load is
// left to that search to retry; the write itself has succeeded.
func (s *Store) warm(ctx context.Context, docs []lore.IndexDoc) {
	seen := map[vecKey]bool{}
	for _, d := range docs {
		k := vecKey{tenant: d.Scope.TenantID, user: d.Scope.UserID}
		if len(d.Vector) == 0 || k.user == "" || seen[k] {
			continue
		}
		seen[k] = true
		_, _ = s.vectorSet(ctx, k)
	}
}

// vectorSet returns the loaded set for key, loading it from the database
// on first use. The set is registered before it loads and holds its lock
// while loading. A write applies its change to the cache after its commit:
// if it finds the set unloaded, its commit precedes the load's read, which
// therefore sees it; otherwise it waits for the load and applies on top.
func (s *Store) vectorSet(ctx context.Context, key vecKey) (*vecSet, error) {
	c := s.vectors
	c.mu.Lock()
	set := c.sets[key]
	if set == nil {
		set = &vecSet{pos: map[string]int{}}
		c.sets[key] = set
	}
	c.tick++
	set.used = c.tick
	c.mu.Unlock()

	set.mu.RLock()
	loaded := set.loaded
	set.mu.RUnlock()
	if loaded {
		return set, nil
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	if set.loaded {
		return set, nil
	}
	var w where
	w.add("d.tenant_id = ?", key.tenant)
	w.add("d.user_id = ?", key.user)
	if key.user == "" {
		w.add("d.agent_id = ?", key.agent)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT d.id, d.kind, d.user_id, d.agent_id, d.run_id, d.time, v.vector
		FROM docs d JOIN doc_vectors v ON v.seq = d.seq WHERE `+w.sql(), w.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id, kind, user, agent, run string
			time                       int64
			blob                       []byte
		)
		if err := rows.Scan(&id, &kind, &user, &agent, &run, &time, &blob); err != nil {
			return nil, err
		}
		if d, ok := newVecDoc(id, lore.DocKind(kind), user, agent, run, time, decodeVector(blob)); ok {
			set.put(d)
		}
	}
	if err := rows.Err(); err != nil {
		// Leave the set unloaded; the next search retries.
		set.docs, set.pos, set.ann = nil, map[string]int{}, nil
		set.annBuilding, set.annLog = false, nil
		set.annGen++
		set.bytes.Store(0)
		return nil, err
	}
	set.loaded = true
	c.mu.Lock()
	if len(set.docs) == 0 {
		// Nothing to keep: the next search loads afresh (an indexed read
		// that finds nothing), and a write finds no set to update.
		if c.sets[key] == set {
			delete(c.sets, key)
		}
	} else {
		c.evict(set)
	}
	c.mu.Unlock()
	return set, nil
}

// SearchVector ranks the scope's documents by cosine similarity to
// q.Vector with an exact scan of the cached set (see the vector cache): the
// hits and scores are those of a full float32 comparison.
// Documents of another dimension are skipped. A query without a vector
// finds nothing.
func (x *Index) SearchVector(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	if err := q.Scope.Validate(); err != nil {
		return nil, err
	}
	query := unitVector(q.Vector)
	if query == nil {
		return []lore.IndexHit{}, nil
	}
	set, err := x.s.vectorSet(ctx, readKey(q.Scope))
	if err != nil {
		return nil, wrap("search vector", err)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	if hits, ok := x.searchANN(set, query, q, limit); ok {
		return hits, nil
	}
	match := docMatcher(q)

	set.mu.RLock()
	defer set.mu.RUnlock()
	docs := set.docs
	qq, qscale, qerr := quantize(query)

	// Exact top-k in two passes. The first reads only the int8 vectors (a
	// quarter of the memory, which is what bounds a scan of a large set):
	// with u ≈ q8·s and the query q ≈ qq·sq, the exact cosine q·u lies within
	// bound = qerr + (1+qerr)·q8err of qq·q8·sq·s (Cauchy-Schwarz, both unit
	// vectors). T is the limit-th largest lower bound; a document whose upper
	// bound is below T cannot be in the top limit, since limit documents
	// score at least T. The second pass rescores the remaining candidates
	// exactly in float32.
	parts := 1
	if len(docs) >= x.s.parallelScan {
		parts = runtime.GOMAXPROCS(0)
	}
	type candidate struct {
		i     int
		upper float64
	}
	lowers := make([]topK, parts)
	cands := make([][]candidate, parts)
	var wg sync.WaitGroup
	size := (len(docs) + parts - 1) / parts
	for p := range parts {
		lo, hi := p*size, min((p+1)*size, len(docs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			low := topK{limit: limit}
			var mine []candidate
			for i := lo; i < hi; i++ {
				d := &docs[i]
				if len(d.q8) != len(qq) || !match(d) {
					continue
				}
				approx := float64(dot8(qq, d.q8)) * qscale * d.q8scale
				// 1e-4 covers float32 rounding, in the stored vectors and
				// in the rescoring's sums (at most about dim·2⁻²⁴).
				bound := qerr + (1+qerr)*d.q8err + 1e-4
				upper := approx + bound
				// The running threshold only rises, so a document below it
				// now stays below the final one.
				if len(low.items) == limit && upper < low.items[0].score {
					continue
				}
				low.offer(i, approx-bound)
				mine = append(mine, candidate{i, upper})
			}
			lowers[p], cands[p] = low, mine
		}()
	}
	wg.Wait()
	low := topK{limit: limit}
	for _, t := range lowers {
		for _, c := range t.items {
			low.offer(c.i, c.score)
		}
	}
	threshold := math.Inf(-1)
	if len(low.items) == limit {
		threshold = low.items[0].score
	}
	all := topK{limit: limit}
	for _, part := range cands {
		for _, c := range part {
			if c.upper >= threshold {
				all.offer(c.i, dot(query, docs[c.i].unit))
			}
		}
	}
	slices.SortFunc(all.items, func(a, b scored) int {
		if a.score != b.score {
			return cmpDesc(a.score, b.score)
		}
		return strings.Compare(docs[a.i].id, docs[b.i].id)
	})
	hits := make([]lore.IndexHit, len(all.items))
	for i, c := range all.items {
		hits[i] = lore.IndexHit{ID: docs[c.i].id, Kind: docs[c.i].kind, Score: c.score}
	}
	return hits, nil
}

// docMatcher returns the filter of q over cached documents; the set already
// holds only q.Scope's tenant and user (or agent).
func docMatcher(q lore.IndexQuery) func(d *vecDoc) bool {
	sc := q.Scope
	var since, until int64 = math.MinInt64, math.MaxInt64
	if q.Since != nil {
		since = micros(*q.Since)
	}
	if q.Until != nil {
		until = micros(*q.Until)
	}
	return func(d *vecDoc) bool {
		return d.user == sc.UserID &&
			(sc.AgentID == "" || d.agent == sc.AgentID) &&
			(sc.RunID == "" || d.run == sc.RunID) &&
			(len(q.Kinds) == 0 || slices.Contains(q.Kinds, d.kind)) &&
			d.time >= since && d.time < until
	}
}

// unitVector returns v scaled to length 1, or nil for an empty or zero
// vector.
func unitVector(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return nil
	}
	inv := 1 / math.Sqrt(n)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

// dot returns the dot product of two vectors of equal length.
func dot(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return float64(s0 + s1 + s2 + s3)
}

// quantize returns u as int8s scaled to its largest component, u ≈ q·scale,
// and the Euclidean norm of the difference. Scaling per vector, not by a
// fixed 1/127, keeps the error (and so the candidates SearchVector must
// rescore) several times smaller for embedding-like vectors.
func quantize(u []float32) ([]int8, float64, float64) {
	var peak float64
	for _, x := range u {
		peak = max(peak, math.Abs(float64(x)))
	}
	q := make([]int8, len(u))
	if peak == 0 {
		return q, 0, 0
	}
	scale := peak / 127
	var e float64
	for i, x := range u {
		r := max(-127, min(127, math.Round(float64(x)/scale)))
		q[i] = int8(r)
		d := float64(x) - r*scale
		e += d * d
	}
	return q, scale, math.Sqrt(e)
}

// dot8 returns the dot product of two int8 vectors of equal length.
func dot8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// scored is a candidate: an index into the set's docs and its similarity.
type scored struct {
	i     int
	score float64
}

// topK keeps the limit best candidates in a min-heap.
type topK struct {
	limit int
	items []scored
}

func (t *topK) Len() int           { return len(t.items) }
func (t *topK) Less(i, j int) bool { return t.items[i].score < t.items[j].score }
func (t *topK) Swap(i, j int)      { t.items[i], t.items[j] = t.items[j], t.items[i] }
func (t *topK) Push(x any)         { t.items = append(t.items, x.(scored)) }
func (t *topK) Pop() any {
	last := t.items[len(t.items)-1]
	t.items = t.items[:len(t.items)-1]
	return last
}

// offer keeps candidate i if it is among the best so far.
func (t *topK) offer(i int, score float64) {
	if len(t.items) < t.limit {
		heap.Push(t, scored{i, score})
	} else if score > t.items[0].score {
		t.items[0] = scored{i, score}
		heap.Fix(t, 0)
	}
}

// cmpDesc orders higher values first.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
