package llm

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/lore-memory/lore"
)

// A cached reply holds what the user said, extracted: it belongs to the
// user's scope and goes with it when the scope is erased. Cache keys start
// with the scope they were made for, "@tenant/user/agent/" with each part
// path-escaped, so that an erase removes them by prefix. Keys made before
// that start with a hex digit and belong to no known scope; the first erase
// removes them all.

var _ lore.Forgetter = (*Extractor)(nil)

// scopeKey is the part of a cache key that names its scope.
func scopeKey(sc lore.Scope) string {
	return "@" + url.PathEscape(sc.TenantID) + "/" + url.PathEscape(sc.UserID) + "/" + url.PathEscape(sc.AgentID) + "/"
}

// forgetPrefix is the key prefix of every reply an erase of sc must remove:
// the user's replies with any agent, else the agent's own, else the
// tenant's. Removing more than the erased scope is harmless for a cache.
func forgetPrefix(sc lore.Scope) string {
	p := "@" + url.PathEscape(sc.TenantID) + "/"
	switch {
	case sc.UserID != "":
		p += url.PathEscape(sc.UserID) + "/"
	case sc.AgentID != "":
		p += "/" + url.PathEscape(sc.AgentID) + "/"
	}
	return p
}

// legacyPrefixes are the first characters of cache keys made before keys
// named their scope (hex SHA-256 digests).
const legacyPrefixes = "0123456789abcdef"

// ScopedCache is a Cache that can drop every entry of a scope.
type ScopedCache interface {
	Cache
	// Forget removes the entries whose keys start with prefix.
	Forget(ctx context.Context, prefix string) error
}

// Forget implements lore.Forgetter: it drops the cached replies of sc's
// extractions, and the unattributable ones of older versions, from the
// cache when the cache can (ScopedCache; both of this package's can).
func (x *Extractor) Forget(ctx context.Context, sc lore.Scope) error {
	c, ok := x.cache.(ScopedCache)
	if !ok {
		return nil
	}
	for _, p := range append([]string{forgetPrefix(sc)}, strings.Split(legacyPrefixes, "")...) {
		if err := c.Forget(ctx, p); err != nil {
			return fmt.Errorf("llm: forget cached replies: %w", err)
		}
	}
	return nil
}

// Forget implements ScopedCache.
func (c *LRU) Forget(_ context.Context, prefix string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, el := range c.items {
		if strings.HasPrefix(key, prefix) {
			c.order.Remove(el)
			delete(c.items, key)
		}
	}
	return nil
}

// Forget implements ScopedCache. The store must be a lore.EraseStore (every
// backend is).
func (c *MetaCache) Forget(ctx context.Context, prefix string) error {
	es, ok := c.meta.(lore.EraseStore)
	if !ok {
		return lore.Errorf(lore.EINTERNAL, "llm: the meta store %T cannot delete cached replies", c.meta)
	}
	if _, err := es.DeleteMetaPrefix(ctx, MetaCachePrefix+prefix); err != nil {
		return fmt.Errorf("llm: meta cache forget: %w", err)
	}
	return nil
}
