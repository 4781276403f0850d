package sqlite

import (
	"container/list"
	"sync"
)

// The posting cache.
//
// At 100k documents in one partition a common term's postings run to tens
// of thousands of rows, and reading them through SQLite was the largest
// cost of a text search there (bench/scale BenchmarkSearch, 100k facts in
// one user: termReader.scan 44 % of the search CPU). A list read whole at a
// partition's generation (migration 32) stays true while that generation
// stands: every write to the partition's postings or statistics moves it to
// a value it never had. So long lists are kept in memory, keyed by
// partition, generation and term, least recently used out first within a
// bound on the postings held. A list is shared by the searches that read
// it and never changed. A write drops its partitions' lists (they are of a
// generation that is gone); a search still reading the snapshot before the
// write may put one back, which no later search asks for and the bound
// evicts in time.

// postingKey names one posting list at one generation of its partition.
type postingKey struct {
	part, gen int64
	term      string
}

// Posting cache bounds: a list shorter than postingCacheMin is read from
// SQLite each time (a few hundred microseconds at most); the cache holds
// at most postingCacheLimit postings, 16 bytes each (64 MiB).
const (
	postingCacheMin   = 1024
	postingCacheLimit = 4 << 20
)

// postingCache is a bounded LRU map from postingKey to a posting list.
type postingCache struct {
	mu     sync.Mutex
	limit  int // postings held at most
	held   int
	order  *list.List // of *postingEntry, most recently used first
	byKey  map[postingKey]*list.Element
	byPart map[int64]map[postingKey]bool
}

type postingEntry struct {
	key  postingKey
	list []posting
}

func newPostingCache(limit int) *postingCache {
	return &postingCache{limit: limit, order: list.New(), byKey: map[postingKey]*list.Element{}, byPart: map[int64]map[postingKey]bool{}}
}

// get returns the list cached under k, if any.
func (c *postingCache) get(k postingKey) ([]posting, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*postingEntry).list, true
}

// put keeps l under k when it is long enough to be worth it and fits,
// dropping the least recently used lists to make room.
func (c *postingCache) put(k postingKey, l []posting) {
	if len(l) < postingCacheMin || len(l) > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok {
		return
	}
	for c.held+len(l) > c.limit {
		c.removeLocked(c.order.Back())
	}
	c.byKey[k] = c.order.PushFront(&postingEntry{key: k, list: l})
	if c.byPart[k.part] == nil {
		c.byPart[k.part] = map[postingKey]bool{}
	}
	c.byPart[k.part][k] = true
	c.held += len(l)
}

// dropPart forgets every list of partition part. A nil cache holds none.
func (c *postingCache) dropPart(part int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.byPart[part] {
		c.removeLocked(c.byKey[k])
	}
}

func (c *postingCache) removeLocked(e *list.Element) {
	ent := e.Value.(*postingEntry)
	c.order.Remove(e)
	delete(c.byKey, ent.key)
	if keys := c.byPart[ent.key.part]; keys != nil {
		delete(keys, ent.key)
		if len(keys) == 0 {
			delete(c.byPart, ent.key.part)
		}
	}
	c.held -= len(ent.list)
}
