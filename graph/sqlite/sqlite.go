// Package sqlite is Lore's embedded default store: one SQLite database file
// holding episodes, the knowledge graph of entities and facts, their
// history, the job queue, settings and the search index (postings for BM25,
// float32 vectors searched exactly). It is pure Go (modernc.org/sqlite).
//
// Durability: the database runs in WAL mode with synchronous=FULL, so every
// write is on disk when its method returns. All writes go through one
// connection, one transaction per call (history is written in the same
// transaction as the change it records); reads use a separate pool that
// never blocks on the writer.
//
// Text search ranks with BM25 over each user's (or agent's) own documents,
// whatever else the file holds (porter stemming, diacritics folded, as
// FTS5 did; see Text search in bm25.go); vector search is an exact cosine
// scan (int8 first pass with error bounds, float32 rescoring) over an
// in-memory, bounded cache of each searched user's (or agent's) vectors,
// kept in step with every write (see SetVectorCacheBytes).
//
// *Store implements lore.Store. Its Index method returns the lore.Index over
// the same database: the two ports both name a DeleteScope method, with
// different results, so one Go type cannot implement both.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver

	"github.com/lore-memory/lore"
)

var _ lore.Store = (*Store)(nil)

//go:embed migrations/*.sql
var migrations embed.FS

// Store is the embedded store. Create it with Open; it is safe for
// concurrent use.
type Store struct {
	path string
	w    *sql.DB // exactly one connection: every write, serialized
	r    *sql.DB // read pool, query_only
	// reads runs the read pool's queries through statements prepared once
	// (stmtcache.go).
	reads *stmtCache
	now   func() time.Time

	// vectors caches each namespace's vectors in memory for SearchVector;
	// see vectorCache.
	vectors *vectorCache
	// postings keeps long posting lists of the text index by partition
	// generation; see postingcache.go.
	postings *postingCache
	// indexMu orders index writes together with their cache updates, so
	// that the cache applies changes in commit order.
	indexMu sync.Mutex
	// parallelScan is the set size from which SearchVector splits its scan
	// across cores.
	parallelScan int
	// annThreshold is the set size from which SearchVector asks an HNSW
	// index for candidates instead of scanning (see SetANNThreshold).
	annThreshold atomic.Int64
	// annEFFactor times the limit is the breadth of an HNSW search (ann.go);
	// 0: 3. Set by SetANNBreadth.
	annEFFactor atomic.Int64
	// annStop is closed by Close to stop background index builds, and
	// annWG waits for them; annBuilds and annBuildNanos count the finished
	// ones (ANNBuilds). annBuildHook, when set by a test, runs at the start
	// of each build.
	annStop       chan struct{}
	annWG         sync.WaitGroup
	annBuilds     atomic.Int64
	annBuildNanos atomic.Int64
	annBuildHook  func()

	// fenceStmt is erasedQuery prepared on the writer (see checkFence).
	fenceStmt   *sql.Stmt
	closeMu     sync.Mutex
	refs        int  // the Store and each open Index view hold one
	storeClosed bool // the Store's own reference is released
	closed      bool // the database is closed
}

// Open opens or creates the database file at path, applies any pending
// schema migrations, indexes documents an older version left unindexed,
// and returns the store. The directory must exist.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || strings.ContainsAny(path, "?#") {
		return nil, lore.Errorf(lore.EINVALID, "sqlite: database path %q is empty or holds '?' or '#'", path)
	}
	// Memories are personal data: create the file readable by its owner
	// only. SQLite gives the -wal and -shm files the database's mode.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("sqlite: create %s: %w", path, err)
	}
	// busy_timeout first: the reader pool may meet a checkpoint in progress.
	common := "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"
	// secure_delete on the writer (the only connection that deletes):
	// deleted text is overwritten with zeros, not left in free pages, so an
	// erase followed by a checkpoint (see scrub) leaves no copy in the file.
	w, err := sql.Open("sqlite", path+"?"+common+"&_pragma=secure_delete(1)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// One writer connection: SQLite allows one writer at a time anyway, and
	// queueing in database/sql is cheaper and fairer than SQLITE_BUSY retries.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	s := &Store{path: path, w: w, now: time.Now, vectors: newVectorCache(), postings: newPostingCache(postingCacheLimit),
		parallelScan: 20000, refs: 1, annStop: make(chan struct{})}
	s.annThreshold.Store(DefaultANNThreshold)
	if err := s.migrate(ctx, math.MaxInt); err != nil {
		w.Close()
		return nil, err
	}
	if err := s.backfill(ctx); err != nil {
		w.Close()
		return nil, err
	}
	if s.fenceStmt, err = w.PrepareContext(ctx, erasedQuery); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: prepare erase fence: %w", err)
	}
	// Readers map the file and keep a larger page cache: searches and walks
	// touch many pages, and syscalls per page would dominate.
	r, err := sql.Open("sqlite", path+"?"+common+"&_pragma=query_only(1)&_pragma=mmap_size(1073741824)&_pragma=cache_size(-32768)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	readers := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s for reading: %w", path, err)
	}
	s.r = r
	s.reads = newStmtCache(r)
	return s, nil
}

// Close closes the Store's hold on the database. The database itself closes
// when the Store and every Index view taken from it are closed. Calling
// Close twice is safe.
func (s *Store) Close() error {
	return s.release(&s.storeClosed)
}

// release drops one reference, flagged by *done, and closes the database
// when none is left.
func (s *Store) release(done *bool) error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if *done || s.closed {
		return nil
	}
	*done = true
	s.refs--
	if s.refs > 0 {
		return nil
	}
	s.closed = true
	close(s.annStop)
	s.annWG.Wait()
	var errs []error
	if s.r != nil {
		errs = append(errs, s.reads.close(), s.r.Close())
	}
	// PRAGMA optimize refreshes the planner's statistics where they have
	// gone stale, as SQLite recommends before closing a connection.
	if _, err := s.w.Exec("PRAGMA optimize"); err != nil {
		errs = append(errs, err)
	}
	if s.fenceStmt != nil {
		errs = append(errs, s.fenceStmt.Close())
	}
	// Closing the last connection checkpoints the WAL into the main file.
	errs = append(errs, s.w.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// migrate applies the embedded migrations/NNNN_*.sql files whose number is
// above the database's user_version and at most last, each in its own
// transaction.
func (s *Store) migrate(ctx context.Context, last int) error {
	entries, err := fs.ReadDir(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("sqlite: read migrations: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	var current int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("sqlite: read user_version: %w", err)
	}
	for _, name := range names {
		num, err := strconv.Atoi(strings.SplitN(name, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("sqlite: migration %s: name must start with its number", name)
		}
		if num <= current || num > last {
			continue
		}
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			return fmt.Errorf("sqlite: read migration %s: %w", name, err)
		}
		err = s.write(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			// PRAGMA takes no parameters; num is an integer we parsed.
			_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", num))
			return err
		})
		if err != nil {
			return fmt.Errorf("sqlite: migration %s: %w", name, err)
		}
		current = num
	}
	return nil
}

// write runs fn in one write transaction on the single writer connection
// and commits it; any error rolls everything back. Under a fenced context
// (lore.WithFence) the transaction first checks the fence, so a write made
// for an erased scope writes nothing and returns lore.ErrScopeErased.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := s.checkFence(ctx, tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// wrap names the failing operation on infrastructure errors and passes
// lore errors through unchanged.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var le *lore.Error
	if errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// clock returns the current time at the precision the store keeps.
func (s *Store) clock() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

// newID returns a fresh record id.
func newID() string { return lore.NewID() }

// Times are stored as INTEGER microseconds since the Unix epoch (UTC): exact
// for every year Go can represent, compact, and ordered by plain comparison.

// micros encodes t.
func micros(t time.Time) int64 { return t.UnixMicro() }

// microsPtr encodes an optional time as NULL or microseconds.
func microsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMicro()
}

// fromMicros decodes a stored time.
func fromMicros(v int64) time.Time { return time.UnixMicro(v).UTC() }

// fromNullMicros decodes an optional stored time.
func fromNullMicros(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMicros(v.Int64)
	return &t
}

// normTime returns t at the stored precision, so that what a method returns
// equals what a later read returns.
func normTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// seenRange normalizes a record's first and last sighting: a missing end
// takes the other's value, and with neither both are now.
func seenRange(first, last, now time.Time) (time.Time, time.Time) {
	first, last = normTime(first), normTime(last)
	switch {
	case first.IsZero() && last.IsZero():
		return now, now
	case first.IsZero():
		return last, last
	case last.IsZero():
		return first, first
	}
	return first, last
}

// normTimePtr is normTime for optional times.
func normTimePtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := normTime(*t)
	return &v
}

// where builds a conjunction of SQL conditions with their arguments.
type where struct {
	conds []string
	args  []any
}

// add appends one condition with its arguments.
func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

// in appends "col IN (?, ?, ...)" for vals; an empty list matches nothing.
func (w *where) in(col string, vals []string) {
	if len(vals) == 0 {
		w.add("0")
		return
	}
	w.add(col+" IN ("+placeholders(len(vals))+")", anys(vals)...)
}

// scope appends the conditions that select the records sc Contains, for a
// table aliased p with tenant_id, user_id, agent_id and run_id columns.
// The set fields filter, and an agent-only scope selects the agent's own
// records (no user), as lore.Scope.Contains says.
func (w *where) scope(p string, sc lore.Scope) {
	w.add(p+"tenant_id = ?", sc.TenantID)
	if sc.UserID != "" || sc.AgentID != "" {
		w.add(p+"user_id = ?", sc.UserID)
	}
	if sc.AgentID != "" {
		w.add(p+"agent_id = ?", sc.AgentID)
	}
	if sc.RunID != "" {
		w.add(p+"run_id = ?", sc.RunID)
	}
}

// scopeFilter is scope for statements that reach their rows through a
// more selective index (an id, an entity): the unary + keeps SQLite from
// choosing the scope index instead, which for a large user would mean
// reading all of the user's rows.
func (w *where) scopeFilter(p string, sc lore.Scope) {
	w.scope("+"+p, sc)
}

// namespace appends the conditions selecting entities visible to a read
// under sc: entities carry a namespace (no run), and a read inside a run
// still sees its namespace's entities.
func (w *where) namespace(p string, sc lore.Scope) {
	ns := sc.Namespace()
	w.add(p+"tenant_id = ?", ns.TenantID)
	// An agent-only scope reads the agent's own namespace (no user).
	if ns.UserID != "" || ns.AgentID != "" {
		w.add(p+"user_id = ?", ns.UserID)
	}
	if ns.AgentID != "" {
		w.add(p+"agent_id = ?", ns.AgentID)
	}
}

// namespaceFilter is namespace for statements that reach their rows
// through a more selective index; see scopeFilter.
func (w *where) namespaceFilter(p string, sc lore.Scope) {
	w.namespace("+"+p, sc)
}

// sql returns the conditions joined with AND, or "1" when there are none.
func (w *where) sql() string {
	if len(w.conds) == 0 {
		return "1"
	}
	return strings.Join(w.conds, " AND ")
}

// placeholders returns "?, ?, ..." with n marks.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

// anys converts strings to query arguments.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// limitOffset returns a LIMIT clause; SQLite needs a LIMIT for an OFFSET,
// and -1 means none.
func limitOffset(limit, offset int) string {
	if limit <= 0 && offset <= 0 {
		return ""
	}
	if limit <= 0 {
		limit = -1
	}
	return fmt.Sprintf(" LIMIT %d OFFSET %d", limit, max(offset, 0))
}

// chunks splits ids into slices small enough for one statement's variables.
func chunks(ids []string, size int) [][]string {
	var out [][]string
	for len(ids) > size {
		out = append(out, ids[:size])
		ids = ids[size:]
	}
	if len(ids) > 0 {
		out = append(out, ids)
	}
	return out
}
