package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

var (
	_ lore.QueryLogStore  = (*Store)(nil)
	_ lore.TenantProfiles = (*Store)(nil)
)

// AppendQueryLog stores e in the user's query log.
func (s *Store) AppendQueryLog(ctx context.Context, scope lore.Scope, e lore.QueryLogEntry) error {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := s.checkFence(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO query_log (id, tenant_id, user_id, query, hash, created_at, expires_at, inferred_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, e.ID, scope.TenantID, scope.UserID, e.Query, e.Hash,
			micros(e.CreatedAt), micros(e.ExpiresAt), microsPtr(e.InferredAt))
		if err != nil && strings.Contains(err.Error(), "UNIQUE") {
			return lore.Errorf(lore.ECONFLICT, "query log entry %q exists", e.ID)
		}
		return err
	})
	return wrap("append query log", err)
}

// QueryLog returns the user's unexpired entries, oldest first.
func (s *Store) QueryLog(ctx context.Context, scope lore.Scope, f lore.QueryLogFilter) ([]lore.QueryLogEntry, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return nil, err
	}
	now := f.Now
	if now.IsZero() {
		now = s.clock()
	}
	var w where
	w.add("tenant_id = ?", scope.TenantID)
	w.add("user_id = ?", scope.UserID)
	w.add("expires_at > ?", micros(now))
	if f.Pending {
		w.add("inferred_at IS NULL")
	}
	q := `SELECT id, query, hash, created_at, expires_at, inferred_at FROM query_log WHERE ` + w.sql() + ` ORDER BY created_at, id`
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := s.r.QueryContext(ctx, q, w.args...)
	if err != nil {
		return nil, wrap("query log", err)
	}
	defer rows.Close()
	out := []lore.QueryLogEntry{}
	for rows.Next() {
		var e lore.QueryLogEntry
		var created, expires int64
		var inferred sql.NullInt64
		if err := rows.Scan(&e.ID, &e.Query, &e.Hash, &created, &expires, &inferred); err != nil {
			return nil, wrap("query log", err)
		}
		e.CreatedAt, e.ExpiresAt = fromMicros(created), fromMicros(expires)
		if inferred.Valid {
			t := fromMicros(inferred.Int64)
			e.InferredAt = &t
		}
		out = append(out, e)
	}
	return out, wrap("query log", rows.Err())
}

// MarkQueryLogInferred sets inferred_at on the user's entries ids.
func (s *Store) MarkQueryLogInferred(ctx context.Context, scope lore.Scope, ids []string, at time.Time) error {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE query_log SET inferred_at = ? WHERE id = ? AND tenant_id = ? AND user_id = ?`,
				micros(at), id, scope.TenantID, scope.UserID); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("mark query log", err)
}

// PurgeQueryLog deletes expired entries and, for tenantID, those created
// before before; then, when any went, checkpoints the WAL as an erase does,
// so the queries' text leaves the file.
func (s *Store) PurgeQueryLog(ctx context.Context, now time.Time, tenantID string, before time.Time) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM query_log WHERE expires_at <= ?`, micros(now))
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		if tenantID == "" || before.IsZero() {
			return nil
		}
		res, err = tx.ExecContext(ctx, `DELETE FROM query_log WHERE tenant_id = ? AND created_at < ?`, tenantID, micros(before))
		if err != nil {
			return err
		}
		m, _ := res.RowsAffected()
		n += m
		return nil
	})
	if err != nil {
		return 0, wrap("purge query log", err)
	}
	if n > 0 {
		return int(n), s.scrub(ctx)
	}
	return 0, nil
}

// deleteScopeQueryLog removes the query logs an erase of sc covers: the
// user's, or the tenant's; an erase of one agent or run leaves them.
func deleteScopeQueryLog(ctx context.Context, tx *sql.Tx, sc lore.Scope) error {
	if sc.AgentID != "" || sc.RunID != "" {
		return nil
	}
	var w where
	w.add("tenant_id = ?", sc.TenantID)
	if sc.UserID != "" {
		w.add("user_id = ?", sc.UserID)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM query_log WHERE `+w.sql(), w.args...); err != nil {
		return fmt.Errorf("delete query log: %w", err)
	}
	return nil
}

// TenantProfileEntries returns the current profile entries of the tenant's
// users, by user id.
func (s *Store) TenantProfileEntries(ctx context.Context, tenantID string) (map[string][]lore.ProfileEntry, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, `+profileColumns+` FROM profile_entries
		WHERE tenant_id = ? ORDER BY user_id, key, value_norm`, tenantID)
	if err != nil {
		return nil, wrap("tenant profiles", err)
	}
	defer rows.Close()
	out := map[string][]lore.ProfileEntry{}
	for rows.Next() {
		var user string
		var e lore.ProfileEntry
		var source, evidence string
		var updated int64
		if err := rows.Scan(&user, &e.Key, &e.Value, &e.Confidence, &source, &evidence, &updated); err != nil {
			return nil, wrap("tenant profiles", err)
		}
		e.Source, e.UpdatedAt, e.Evidence = lore.ProfileSource(source), fromMicros(updated), []string{}
		out[user] = append(out[user], e)
	}
	return out, wrap("tenant profiles", rows.Err())
}
