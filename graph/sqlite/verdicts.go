package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/lore-memory/lore"
)

var _ lore.VerdictLister = (*Store)(nil)

// ListVerdicts returns one page of the verdicts the scope contains, newest
// first.
func (s *Store) ListVerdicts(ctx context.Context, scope lore.Scope, page lore.VerdictPage) ([]lore.Verdict, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	at, id, err := lore.ParseVerdictCursor(page.Before)
	if err != nil {
		return nil, err
	}
	var w where
	w.namespace("", scope)
	if page.Before != "" {
		w.add("(created_at < ? OR (created_at = ? AND id < ?))", micros(at), micros(at), id)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, tenant_id, user_id, agent_id, memory_id, helpful, query_hash, delta, created_at FROM verdicts WHERE `+
		w.sql()+` ORDER BY created_at DESC, id DESC LIMIT ?`, append(w.args, max(page.Limit, 0))...)
	if err != nil {
		return nil, wrap("list verdicts", err)
	}
	defer rows.Close()
	out := []lore.Verdict{}
	for rows.Next() {
		var v lore.Verdict
		var at int64
		if err := rows.Scan(&v.ID, &v.Scope.TenantID, &v.Scope.UserID, &v.Scope.AgentID, &v.MemoryID, &v.Helpful, &v.QueryHash, &v.Delta, &at); err != nil {
			return nil, wrap("list verdicts", err)
		}
		v.CreatedAt = fromMicros(at)
		out = append(out, v)
	}
	return out, wrap("list verdicts", rows.Err())
}

// deleteMemorySignals removes a deleted memory's ranking-signal state —
// verdicts, signal rows (relevance, usage) and success rows — in every
// namespace of its tenant, in the deletion's transaction.
func deleteMemorySignals(ctx context.Context, tx *sql.Tx, tenant, id string) error {
	for _, table := range []string{"verdicts", "memory_signals", "success"} {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE tenant_id = ? AND memory_id = ?`, tenant, id); err != nil {
			return fmt.Errorf("delete %s of memory: %w", table, err)
		}
	}
	return nil
}
