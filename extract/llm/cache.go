package llm

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/lore-memory/lore"
	openai "github.com/sashabaranov/go-openai"
)

// Cache keeps the model's replies by request hash, so re-ingesting the same
// text makes no call. Implementations are safe for concurrent use. A cache
// failure never fails an extraction: it is logged and the model is called.
type Cache interface {
	// Get returns the value stored under key and whether there was one.
	Get(ctx context.Context, key string) (string, bool, error)
	// Put stores value under key, replacing any earlier value.
	Put(ctx context.Context, key, value string) error
}

// cacheKey hashes everything that decides the reply: the model, the prompt
// version and every message of the request, each part length-prefixed so no
// two requests share a key.
func cacheKey(model, version string, msgs []openai.ChatCompletionMessage) string {
	h := sha256.New()
	write := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	write(model)
	write(version)
	for _, m := range msgs {
		write(m.Role)
		write(m.Content)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// LRU is an in-memory Cache holding the most recently used entries.
type LRU struct {
	mu    sync.Mutex
	size  int
	order *list.List // front: most recently used; values are *lruEntry
	items map[string]*list.Element
}

type lruEntry struct{ key, value string }

var _ Cache = (*LRU)(nil)

// NewLRU returns an LRU of at most size entries; size <= 0 means
// DefaultCacheSize.
func NewLRU(size int) *LRU {
	if size <= 0 {
		size = DefaultCacheSize
	}
	return &LRU{size: size, order: list.New(), items: make(map[string]*list.Element)}
}

// Get implements Cache.
func (c *LRU) Get(_ context.Context, key string) (string, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return "", false, nil
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry).value, true, nil
}

// Put implements Cache, evicting the least recently used entry when full.
func (c *LRU) Put(_ context.Context, key, value string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		el.Value.(*lruEntry).value = value
		c.order.MoveToFront(el)
		return nil
	}
	c.items[key] = c.order.PushFront(&lruEntry{key: key, value: value})
	if c.order.Len() > c.size {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*lruEntry).key)
	}
	return nil
}

// Len returns the number of cached entries.
func (c *LRU) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// MetaCachePrefix starts the MetaStore keys of a MetaCache.
const MetaCachePrefix = "llmcache:"

// MetaCache is a durable Cache over the primary store's settings, so replies
// survive restarts and re-ingesting after one makes no call either. Entries
// are never evicted. With a Sealer (SealWith) the replies, which hold what
// users said, are sealed under their tenant's data key like the rest of
// their memories.
type MetaCache struct {
	meta   lore.MetaStore
	sealer Sealer
}

// Sealer seals a value under a tenant's data key and opens it again;
// crypt.Keyring is one. Open returns a value that was never sealed as it is.
type Sealer interface {
	Seal(ctx context.Context, tenant, plain string) (string, error)
	Open(ctx context.Context, tenant, sealed string) (string, error)
}

// SealWith makes c seal the replies it stores from now on. Call it before
// the cache is used. A key names its tenant (scopeKey); while sealing, a
// reply whose key names none is not stored.
func (c *MetaCache) SealWith(s Sealer) { c.sealer = s }

// keyTenant returns the tenant a cache key names (scopeKey), or false.
func keyTenant(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "@")
	if !ok {
		return "", false
	}
	esc, _, ok := strings.Cut(rest, "/")
	if !ok {
		return "", false
	}
	t, err := url.PathUnescape(esc)
	return t, err == nil && t != ""
}

var _ Cache = (*MetaCache)(nil)

// NewMetaCache returns a Cache storing its entries in meta under
// MetaCachePrefix.
func NewMetaCache(meta lore.MetaStore) *MetaCache { return &MetaCache{meta: meta} }

// Get implements Cache.
func (c *MetaCache) Get(ctx context.Context, key string) (string, bool, error) {
	v, err := c.meta.GetMeta(ctx, MetaCachePrefix+key)
	switch {
	case lore.ErrorCode(err) == lore.ENOTFOUND:
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("llm: meta cache get: %w", err)
	}
	if c.sealer != nil {
		tenant, ok := keyTenant(key)
		if !ok {
			return "", false, nil
		}
		if v, err = c.sealer.Open(ctx, tenant, v); err != nil {
			return "", false, fmt.Errorf("llm: meta cache open: %w", err)
		}
	}
	return v, true, nil
}

// Put implements Cache.
func (c *MetaCache) Put(ctx context.Context, key, value string) error {
	if c.sealer != nil {
		tenant, ok := keyTenant(key)
		if !ok {
			return nil
		}
		var err error
		if value, err = c.sealer.Seal(ctx, tenant, value); err != nil {
			return fmt.Errorf("llm: meta cache seal: %w", err)
		}
	}
	if err := c.meta.SetMeta(ctx, MetaCachePrefix+key, value); err != nil {
		return fmt.Errorf("llm: meta cache put: %w", err)
	}
	return nil
}
