package ingest

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/lore-memory/lore"
)

// The embedding cache.
//
// Ingestion embeds the same text more than once: a fact merged again keeps
// its index key, an episode without facts is re-indexed with the same key
// after its extraction, and every batch's entity resolution embeds the
// names of the candidate entities, which are mostly the same from one
// batch to the next. The Service keeps the vectors of recently embedded
// texts, keyed by the embedder's name and dimension and the text's
// SHA-256, so each text is embedded once while it is in the cache.
//
// The cache holds two generations of at most Config.EmbedCacheSize entries
// each: a lookup that hits the older one moves the entry to the current
// one, and when the current one is full the older is dropped. So at most
// 2×EmbedCacheSize vectors are held (about 3 KiB per entry at 384
// dimensions with the key: 24 MiB for the default 4096), and every entry
// used within the last EmbedCacheSize insertions is kept.

// embedKey names one cached vector.
type embedKey struct {
	model string
	dim   int
	sum   [sha256.Size]byte
}

// embedCache is a bounded map from embedKey to vector; see above.
type embedCache struct {
	mu        sync.Mutex
	limit     int
	cur, old  map[embedKey][]float32
	hits, all int64
}

func newEmbedCache(limit int) *embedCache {
	return &embedCache{limit: limit, cur: map[embedKey][]float32{}, old: map[embedKey][]float32{}}
}

// get returns the cached vector of k, or nil.
func (c *embedCache) get(k embedKey) []float32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all++
	if v, ok := c.cur[k]; ok {
		c.hits++
		return v
	}
	if v, ok := c.old[k]; ok {
		c.hits++
		delete(c.old, k)
		c.putLocked(k, v)
		return v
	}
	return nil
}

// put stores a vector, which the cache then owns.
func (c *embedCache) put(k embedKey, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(k, v)
}

func (c *embedCache) putLocked(k embedKey, v []float32) {
	if _, ok := c.cur[k]; !ok && len(c.cur) >= c.limit {
		c.old, c.cur = c.cur, make(map[embedKey][]float32, c.limit)
	}
	c.cur[k] = v
}

// len returns the number of vectors held.
func (c *embedCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.cur) + len(c.old)
}

// EmbedCacheStats returns how many texts the Service looked up in its
// embedding cache and how many it found there.
func (s *Service) EmbedCacheStats() (lookups, hits int64) {
	c := s.embedCacheFor()
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all, c.hits
}

// embedCacheFor returns the Service's cache, nil when Config.EmbedCacheSize
// turns it off.
func (s *Service) embedCacheFor() *embedCache {
	s.embedOnce.Do(func() {
		if n := s.cfg().EmbedCacheSize; n > 0 {
			s.embeds = newEmbedCache(n)
		}
	})
	return s.embeds
}

// embed returns one vector per text: from the cache where it holds the
// text, from one Embedder call for the rest (each distinct text once). It
// checks that the embedder kept its promise of one vector per text. The
// vectors returned are the caller's to keep but not to change.
func (s *Service) embed(ctx context.Context, texts []string) ([][]float32, error) {
	cache := s.embedCacheFor()
	if cache == nil {
		return s.embedAll(ctx, texts)
	}
	info := s.Embedder.Info()
	out := make([][]float32, len(texts))
	keys := make([]embedKey, len(texts))
	var miss []string
	missAt := map[embedKey][]int{}
	for i, t := range texts {
		keys[i] = embedKey{model: info.Name, dim: info.Dim, sum: sha256.Sum256([]byte(t))}
		if v := cache.get(keys[i]); v != nil {
			out[i] = v
			continue
		}
		if _, ok := missAt[keys[i]]; !ok {
			miss = append(miss, t)
		}
		missAt[keys[i]] = append(missAt[keys[i]], i)
	}
	if len(miss) == 0 {
		return out, nil
	}
	vecs, err := s.embedAll(ctx, miss)
	if err != nil {
		return nil, err
	}
	for j, t := range miss {
		k := embedKey{model: info.Name, dim: info.Dim, sum: sha256.Sum256([]byte(t))}
		for _, i := range missAt[k] {
			out[i] = vecs[j]
		}
		cache.put(k, vecs[j])
	}
	return out, nil
}

// embedAll calls the embedder and checks that it returned one vector per
// text.
func (s *Service) embedAll(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, err := s.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("ingest: embed: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, lore.Errorf(lore.EINTERNAL, "embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	return vecs, nil
}
