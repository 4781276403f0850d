// Package querycache keeps the vectors of recent search queries, so a query
// asked again (a user repeating a question, a client polling, a benchmark's
// repeated search) skips the model.
//
// The key is the query's normalized text: Unicode NFC, white space trimmed
// and every run of white space made one space. Both of Lore's tokenizers give
// the same tokens for a text and its normalized form inside the text (MiniLM
// splits on white space and decomposes; e5's SentencePiece normalizer folds
// compatibility forms and collapses spaces), and a miss embeds the
// normalized text, so a hit returns exactly what a miss would. Passages go
// straight to the model: they are embedded once and stored.
package querycache

import (
	"container/list"
	"context"
	"slices"
	"strings"
	"sync"

	lore "github.com/lore-memory/lore"
	"golang.org/x/text/unicode/norm"
)

// DefaultSize is the number of query vectors kept when the caller passes 0:
// 1,024 vectors of 384 floats are 1.5 MB.
const DefaultSize = 1024

// Embedder caches the query vectors of an inner embedder in a bounded LRU.
// It is safe for concurrent use. Each Embedder has its own cache, so two
// embedders (two models) never share vectors.
type Embedder struct {
	inner lore.Embedder
	size  int

	mu      sync.Mutex
	order   *list.List               // front: most recently used; values are *entry
	entries map[string]*list.Element // normalized text → element of order
	hits    uint64
	misses  uint64
}

type entry struct {
	key string
	vec []float32
}

var (
	_ lore.QueryEmbedder            = (*Embedder)(nil)
	_ lore.EntitySimilarityEmbedder = (*Embedder)(nil)
)

// New wraps e with a cache of size query vectors (0: DefaultSize). A
// negative size turns the cache off: New then returns e itself.
func New(e lore.Embedder, size int) lore.Embedder {
	if size < 0 {
		return e
	}
	if size == 0 {
		size = DefaultSize
	}
	return &Embedder{inner: e, size: size, order: list.New(), entries: make(map[string]*list.Element, size)}
}

// Normalize returns the cache key of a query text.
func Normalize(text string) string {
	return strings.Join(strings.Fields(norm.NFC.String(text)), " ")
}

// Embed embeds passages through the inner embedder, uncached.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.inner.Embed(ctx, texts)
}

// Info is the inner embedder's: the cache does not change a stored vector.
func (e *Embedder) Info() lore.EmbedderInfo { return e.inner.Info() }

// EntitySimilarity is the inner embedder's bar for entity-name matching.
func (e *Embedder) EntitySimilarity() float64 { return lore.EntitySimilarity(e.inner) }

// Close closes the inner embedder when it holds resources.
func (e *Embedder) Close() error {
	if c, ok := e.inner.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// Stats reports the hits and misses so far.
func (e *Embedder) Stats() (hits, misses uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hits, e.misses
}

// EmbedQuery returns the cached vectors of the texts it has seen and embeds
// the others (normalized, in one call to the inner embedder's EmbedQuery).
// Every returned vector is the caller's own copy.
func (e *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	keys := make([]string, len(texts))
	var missing []int
	e.mu.Lock()
	for i, t := range texts {
		keys[i] = Normalize(t)
		if el, ok := e.entries[keys[i]]; ok {
			e.order.MoveToFront(el)
			out[i] = slices.Clone(el.Value.(*entry).vec)
			e.hits++
			continue
		}
		missing = append(missing, i)
		e.misses++
	}
	e.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}

	// The same text twice in one call is embedded once.
	var uniq []string
	at := make(map[string]int, len(missing))
	for _, i := range missing {
		if _, ok := at[keys[i]]; !ok {
			at[keys[i]] = len(uniq)
			uniq = append(uniq, keys[i])
		}
	}
	vecs, err := lore.EmbedQuery(ctx, e.inner, uniq)
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(uniq) {
		return nil, lore.Errorf(lore.EINTERNAL, "querycache: embedder returned %d vectors for %d queries", len(vecs), len(uniq))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for j, key := range uniq {
		e.put(key, slices.Clone(vecs[j]))
	}
	for _, i := range missing {
		out[i] = slices.Clone(vecs[at[keys[i]]])
	}
	return out, nil
}

// put stores a vector under key, evicting the least recently used entry
// when the cache is full. The caller holds mu.
func (e *Embedder) put(key string, vec []float32) {
	if el, ok := e.entries[key]; ok {
		el.Value.(*entry).vec = vec
		e.order.MoveToFront(el)
		return
	}
	if e.order.Len() >= e.size {
		old := e.order.Back()
		e.order.Remove(old)
		delete(e.entries, old.Value.(*entry).key)
	}
	e.entries[key] = e.order.PushFront(&entry{key: key, vec: vec})
}
