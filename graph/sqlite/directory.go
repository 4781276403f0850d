package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/lore-memory/lore"
)

var _ lore.Directory = (*Store)(nil)

// ScopeOf returns the scope of the fact, episode or (for a deleted memory)
// history with that id in the tenant. Each lookup is by primary key or the
// history_memory index.
func (s *Store) ScopeOf(ctx context.Context, tenantID, id string) (lore.Scope, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil {
		return lore.Scope{}, err
	}
	if err := lore.ValidateID("id", id); err != nil {
		return lore.Scope{}, err
	}
	for _, q := range []string{
		`SELECT tenant_id, user_id, agent_id, run_id FROM facts WHERE id = ? AND tenant_id = ?`,
		`SELECT tenant_id, user_id, agent_id, run_id FROM episodes WHERE id = ? AND tenant_id = ?`,
		`SELECT tenant_id, user_id, agent_id, run_id FROM history WHERE memory_id = ? AND tenant_id = ? ORDER BY seq DESC LIMIT 1`,
	} {
		var sc lore.Scope
		err := s.r.QueryRowContext(ctx, q, id, tenantID).Scan(&sc.TenantID, &sc.UserID, &sc.AgentID, &sc.RunID)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return lore.Scope{}, wrap("scope of", err)
		}
		return sc, nil
	}
	return lore.Scope{}, lore.Errorf(lore.ENOTFOUND, "memory %q not found", id)
}

// Scopes lists the tenant's scopes that hold episodes or facts, with their
// counts and times, ordered by user, agent and run.
func (s *Store) Scopes(ctx context.Context, tenantID string, limit int) ([]lore.ScopeSummary, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil {
		return nil, err
	}
	if tenantID == "" {
		return nil, lore.Errorf(lore.EINVALID, "tenant_id is required")
	}
	if limit <= 0 {
		return nil, lore.Errorf(lore.EINVALID, "limit must be positive, got %d", limit)
	}
	rows, err := s.r.QueryContext(ctx, `
		SELECT user_id, agent_id, run_id, SUM(n), MIN(first), MAX(last) FROM (
			SELECT user_id, agent_id, run_id, COUNT(*) AS n, MIN(created_at) AS first, MAX(updated_at) AS last
			FROM episodes WHERE tenant_id = ? GROUP BY user_id, agent_id, run_id
			UNION ALL
			SELECT user_id, agent_id, run_id, COUNT(*), MIN(created_at), MAX(updated_at)
			FROM facts WHERE tenant_id = ? GROUP BY user_id, agent_id, run_id)
		GROUP BY user_id, agent_id, run_id
		ORDER BY user_id, agent_id, run_id
		LIMIT ?`, tenantID, tenantID, limit)
	if err != nil {
		return nil, wrap("scopes", err)
	}
	defer rows.Close()
	var out []lore.ScopeSummary
	for rows.Next() {
		sum := lore.ScopeSummary{Scope: lore.Scope{TenantID: tenantID}}
		var first, last int64
		if err := rows.Scan(&sum.Scope.UserID, &sum.Scope.AgentID, &sum.Scope.RunID, &sum.Memories, &first, &last); err != nil {
			return nil, wrap("scopes", err)
		}
		sum.FirstAt, sum.LastAt = fromMicros(first), fromMicros(last)
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("scopes", err)
	}
	return out, nil
}

var _ lore.QueueCounter = (*Store)(nil)

// CountJobs counts the unfinished jobs by state, on the jobs_due index.
func (s *Store) CountJobs(ctx context.Context, tenantID string) (map[lore.JobStatus]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT status, COUNT(*) FROM jobs
		WHERE status IN ('queued', 'running', 'retrying') AND (? = '' OR tenant_id = ?)
		GROUP BY status`, tenantID, tenantID)
	if err != nil {
		return nil, wrap("count jobs", err)
	}
	defer rows.Close()
	out := map[lore.JobStatus]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, wrap("count jobs", err)
		}
		out[lore.JobStatus(st)] = n
	}
	return out, wrap("count jobs", rows.Err())
}
