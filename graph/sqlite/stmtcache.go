package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// The statement cache.
//
// Parsing and planning a statement costs SQLite about as much CPU as
// running one of the search path's small reads (a profile of 16
// concurrent searches over HTTP: sqlite3_prepare_v2 17% of the server's
// CPU, stepping the rows 17%). The readers therefore prepare each query
// text once and keep it: database/sql then keeps one prepared copy per
// reader connection and reuses it. Texts differ with the length of an IN
// list, so the cache is bounded: at most stmtCacheSize texts, the least
// recently used closed first, which bounds SQLite's memory for them too
// (a prepared statement takes a few KiB per connection).

// stmtCacheSize bounds the query texts the readers keep prepared.
const stmtCacheSize = 128

// stmtCache is a querier over the read pool that runs each query text
// through a statement prepared once.
type stmtCache struct {
	db *sql.DB

	mu    sync.Mutex
	stmts map[string]*cachedStmt
	tick  int64
}

// cachedStmt is one prepared text. refs counts the callers between taking
// it from the cache and having their rows (a closed Stmt stays usable by
// rows already open, but a new query on it fails), so an eviction closes
// it only once none is left.
type cachedStmt struct {
	stmt    *sql.Stmt
	refs    int
	used    int64
	evicted bool
}

var _ querier = (*stmtCache)(nil)

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*cachedStmt{}}
}

// QueryContext runs query with args through its prepared statement.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	cs := c.acquire(ctx, query)
	if cs == nil {
		return c.db.QueryContext(ctx, query, args...)
	}
	defer c.release(cs)
	return cs.stmt.QueryContext(ctx, args...)
}

// QueryRowContext runs query with args through its prepared statement.
func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	cs := c.acquire(ctx, query)
	if cs == nil {
		return c.db.QueryRowContext(ctx, query, args...)
	}
	defer c.release(cs)
	return cs.stmt.QueryRowContext(ctx, args...)
}

// txReader is a querier that reads in a read transaction of the pool
// through the cache's statements (database/sql reuses their prepared copy
// on the transaction's connection).
type txReader struct {
	tx    *sql.Tx
	cache *stmtCache
}

var _ querier = txReader{}

// QueryContext runs query in the transaction.
func (r txReader) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	cs := r.cache.acquire(ctx, query)
	if cs == nil {
		return r.tx.QueryContext(ctx, query, args...)
	}
	defer r.cache.release(cs)
	return r.tx.StmtContext(ctx, cs.stmt).QueryContext(ctx, args...)
}

// QueryRowContext runs query in the transaction for a single row.
func (r txReader) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	cs := r.cache.acquire(ctx, query)
	if cs == nil {
		return r.tx.QueryRowContext(ctx, query, args...)
	}
	defer r.cache.release(cs)
	return r.tx.StmtContext(ctx, cs.stmt).QueryRowContext(ctx, args...)
}

// acquire returns the prepared statement of query, preparing it on a miss,
// or nil when it cannot be prepared (the caller then runs the query
// unprepared, which reports the error).
func (c *stmtCache) acquire(ctx context.Context, query string) *cachedStmt {
	c.mu.Lock()
	c.tick++
	if cs := c.stmts[query]; cs != nil {
		cs.refs++
		cs.used = c.tick
		c.mu.Unlock()
		return cs
	}
	c.mu.Unlock()

	stmt, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	if cs := c.stmts[query]; cs != nil { // prepared meanwhile by another caller
		cs.refs++
		c.mu.Unlock()
		_ = stmt.Close()
		return cs
	}
	var closing []*sql.Stmt
	for len(c.stmts) >= stmtCacheSize {
		var oldKey string
		var old *cachedStmt
		for k, cs := range c.stmts {
			if old == nil || cs.used < old.used {
				oldKey, old = k, cs
			}
		}
		delete(c.stmts, oldKey)
		old.evicted = true
		if old.refs == 0 {
			closing = append(closing, old.stmt)
		}
	}
	cs := &cachedStmt{stmt: stmt, refs: 1, used: c.tick}
	c.stmts[query] = cs
	c.mu.Unlock()
	for _, s := range closing {
		_ = s.Close()
	}
	return cs
}

// release ends a caller's use of cs, closing it if it was evicted and this
// was the last use.
func (c *stmtCache) release(cs *cachedStmt) {
	c.mu.Lock()
	cs.refs--
	last := cs.evicted && cs.refs == 0
	c.mu.Unlock()
	if last {
		_ = cs.stmt.Close()
	}
}

// close closes every cached statement; the cache must not be used after.
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for k, cs := range c.stmts {
		if err := cs.stmt.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.stmts, k)
	}
	return first
}

// len returns the number of cached texts.
func (c *stmtCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.stmts)
}
