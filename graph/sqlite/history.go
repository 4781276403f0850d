package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/lore-memory/lore"
)

// addHistory records one event inside the transaction that makes the change.
func addHistory(ctx context.Context, tx *sql.Tx, ev lore.HistoryEvent) error {
	if ev.ID == "" {
		ev.ID = newID()
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO history
		(id, memory_id, tenant_id, user_id, agent_id, run_id, event, before, after, actor, reason, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ev.ID, ev.MemoryID, ev.Scope.TenantID, ev.Scope.UserID, ev.Scope.AgentID, ev.Scope.RunID,
		string(ev.Event), ev.Before, ev.After, ev.Actor, ev.Reason, micros(ev.At))
	return err
}

// History returns a memory's events, oldest first, or ENOTFOUND when the
// scope holds none for that id.
func (s *Store) History(ctx context.Context, scope lore.Scope, memoryID string) ([]lore.HistoryEvent, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	q, args := historyQuery(scope, memoryID)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("history", err)
	}
	defer rows.Close()
	var out []lore.HistoryEvent
	for rows.Next() {
		var (
			ev    lore.HistoryEvent
			event string
			at    int64
		)
		if err := rows.Scan(&ev.ID, &ev.MemoryID, &ev.Scope.TenantID, &ev.Scope.UserID, &ev.Scope.AgentID, &ev.Scope.RunID,
			&event, &ev.Before, &ev.After, &ev.Actor, &ev.Reason, &at); err != nil {
			return nil, wrap("history", err)
		}
		ev.Event, ev.At = lore.EventKind(event), fromMicros(at)
		out = append(out, ev)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("history", err)
	}
	if len(out) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "memory %q not found", memoryID)
	}
	return out, nil
}

// historyQuery returns History's statement: by memory id, then scope.
func historyQuery(scope lore.Scope, memoryID string) (string, []any) {
	var w where
	w.add("memory_id = ?", memoryID)
	w.scopeFilter("", scope)
	return `SELECT id, memory_id, tenant_id, user_id, agent_id, run_id,
		event, before, after, actor, reason, at FROM history WHERE ` + w.sql() + ` ORDER BY seq`, w.args
}

// isConstraint reports whether err is a SQLite constraint violation.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}
