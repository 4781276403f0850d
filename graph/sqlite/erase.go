package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.EraseStore = (*Store)(nil)

// erasedQuery selects an erasure after a sequence number that covers a
// written scope: the erased scope Contains the written one
// (lore.Erasure.Covers), with the erasure's columns on the reading side.
const erasedQuery = `SELECT 1 FROM erasures
	WHERE tenant_id = ? AND seq > ?
	AND (user_id = ? OR (user_id = '' AND agent_id = ''))
	AND (agent_id = '' OR agent_id = ?)
	AND (run_id = '' OR run_id = ?)
	LIMIT 1`

// erased reports whether an erase covering sc came after seq, in q's view.
func erased(ctx context.Context, q querier, sc lore.Scope, seq int64) (bool, error) {
	var one int
	err := q.QueryRowContext(ctx, erasedQuery, sc.TenantID, seq, sc.UserID, sc.AgentID, sc.RunID).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}

// checkFence refuses a write made under a fenced context (lore.WithFence)
// once an erase covering the fence's scope came after it. It runs inside the
// write's transaction, and SQLite has one writer, so no erase can commit
// between the check and the write.
func (s *Store) checkFence(ctx context.Context, tx *sql.Tx) error {
	f, ok := lore.FenceFrom(ctx)
	if !ok {
		return nil
	}
	// The statement is prepared once, in Open: every write of a job runs
	// it, and preparing it anew cost more than running it.
	var one int
	err := tx.StmtContext(ctx, s.fenceStmt).QueryRowContext(ctx, f.Scope.TenantID, f.Seq, f.Scope.UserID, f.Scope.AgentID, f.Scope.RunID).Scan(&one)
	if err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("check erase fence: %w", err)
	}
	gone := err == nil
	if gone {
		return lore.ErrScopeErased
	}
	return nil
}

// recordErasure adds the erasure row of an erase, in its transaction.
func recordErasure(ctx context.Context, tx *sql.Tx, sc lore.Scope, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO erasures (tenant_id, user_id, agent_id, run_id, erased_at) VALUES (?, ?, ?, ?, ?)`,
		sc.TenantID, sc.UserID, sc.AgentID, sc.RunID, micros(at))
	if err != nil {
		return fmt.Errorf("record erasure: %w", err)
	}
	return nil
}

// EraseSeq returns the sequence number of the tenant's latest erase, 0 when
// there was none.
func (s *Store) EraseSeq(ctx context.Context, tenantID string) (int64, error) {
	var seq int64
	err := s.r.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM erasures WHERE tenant_id = ?`, tenantID).Scan(&seq)
	return seq, wrap("erase seq", err)
}

// Erased reports whether an erase covering scope was recorded after seq. An
// erase is one transaction here, so none is ever in progress.
func (s *Store) Erased(ctx context.Context, scope lore.Scope, seq int64) (bool, error) {
	gone, err := erased(ctx, s.reads, scope, seq)
	return gone, wrap("erased", err)
}

// DeleteMetaPrefix removes every setting whose key starts with prefix.
func (s *Store) DeleteMetaPrefix(ctx context.Context, prefix string) (int, error) {
	if prefix == "" {
		return 0, lore.Errorf(lore.EINVALID, "prefix is required")
	}
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		// A range on the primary key rather than LIKE, which would need
		// escaping and could not use the index.
		res, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key >= ? AND key < ?`, prefix, prefixEnd(prefix))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, wrap("delete meta prefix", err)
	}
	if n > 0 {
		if err := s.scrub(ctx); err != nil {
			return int(n), err
		}
	}
	return int(n), nil
}

// prefixEnd returns the least string greater than every string starting
// with prefix (prefix is not empty): its last byte below 0xff incremented.
func prefixEnd(prefix string) string {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return strings.Repeat("\xff", len(prefix)+1)
}

// scrub moves every committed page into the database file and truncates the
// WAL, so that an erase leaves no copy of the erased text on disk: with
// secure_delete on (see Open) the freed cells and pages were zeroed in the
// pages the checkpoint writes, and the WAL frames holding the text's older
// versions are gone with the truncation. A reader holding an old snapshot
// delays it; it is retried until the WAL is empty or ctx ends.
func (s *Store) scrub(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		var busy, logFrames, checkpointed int
		if err := s.w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &checkpointed); err != nil {
			return wrap("checkpoint after erase", err)
		}
		if busy == 0 {
			return nil
		}
		if attempt >= 50 {
			return wrap("checkpoint after erase", fmt.Errorf("a reader kept the WAL busy"))
		}
		select {
		case <-ctx.Done():
			return wrap("checkpoint after erase", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// exec runs one statement on the writer: in a transaction that checks the
// fence when ctx is fenced, on its own otherwise.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if _, ok := lore.FenceFrom(ctx); !ok {
		return s.w.ExecContext(ctx, query, args...)
	}
	var res sql.Result
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = tx.ExecContext(ctx, query, args...)
		return err
	})
	return res, err
}

var _ lore.ErasurePruner = (*Store)(nil)

// PruneErasures deletes the erasure rows recorded before before. An erase
// is one transaction here, so every row is of a finished erase. EraseSeq
// may then go back (to 0 once a tenant has no rows), which is safe: the
// sequence itself never goes back (AUTOINCREMENT), so every later erase
// still numbers above any fence read before it.
func (s *Store) PruneErasures(ctx context.Context, before time.Time) (int, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM erasures WHERE erased_at < ?`, micros(before))
	if err != nil {
		return 0, wrap("prune erasures", err)
	}
	n, err := res.RowsAffected()
	return int(n), wrap("prune erasures", err)
}
