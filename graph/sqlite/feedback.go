package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/lore-memory/lore"
)

var _ lore.FeedbackStore = (*Store)(nil)

// RecordVerdict applies a verdict to the memory's relevance, stores it and
// counts it in the success table, in one transaction.
func (s *Store) RecordVerdict(ctx context.Context, v *lore.Verdict, rule lore.FeedbackRule) (lore.MemorySignal, error) {
	v.Scope = v.Scope.Namespace()
	if err := v.Validate(); err != nil {
		return lore.MemorySignal{}, err
	}
	if err := rule.Validate(); err != nil {
		return lore.MemorySignal{}, err
	}
	if v.ID == "" {
		v.ID = newID()
	}
	v.CreatedAt = s.clock()
	sc := v.Scope
	var out lore.MemorySignal
	err := s.write(ctx, func(tx *sql.Tx) error {
		var old float64
		err := tx.QueryRowContext(ctx, `SELECT adjustment FROM memory_signals WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND memory_id = ?`,
			sc.TenantID, sc.UserID, sc.AgentID, v.MemoryID).Scan(&old)
		if err != nil && err != sql.ErrNoRows {
			return fmt.Errorf("read relevance: %w", err)
		}
		adj := rule.Apply(old, v.Helpful)
		v.Delta = adj - old
		help, unhelp, cited := 0, 1, 0
		if v.Helpful {
			help, unhelp, cited = 1, 0, 1
		}
		// A helpful verdict is the memory cited back (usage).
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_signals (tenant_id, user_id, agent_id, memory_id, adjustment, helpful, unhelpful, cited, last_used)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant_id, user_id, agent_id, memory_id) DO UPDATE SET adjustment = excluded.adjustment,
				helpful = helpful + excluded.helpful, unhelpful = unhelpful + excluded.unhelpful, cited = cited + excluded.cited,
				last_used = max(last_used, CASE WHEN excluded.cited > 0 THEN excluded.last_used ELSE 0 END)`,
			sc.TenantID, sc.UserID, sc.AgentID, v.MemoryID, adj, help, unhelp, cited, cond(cited > 0, micros(v.CreatedAt), 0)); err != nil {
			return fmt.Errorf("update relevance: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO verdicts (id, tenant_id, user_id, agent_id, memory_id, helpful, query_hash, delta, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, v.ID, sc.TenantID, sc.UserID, sc.AgentID, v.MemoryID, v.Helpful, v.QueryHash, v.Delta, micros(v.CreatedAt)); err != nil {
			return fmt.Errorf("insert verdict: %w", err)
		}
		if v.QueryHash != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO success (tenant_id, user_id, agent_id, query_hash, memory_id, helpful, unhelpful)
				VALUES (?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (tenant_id, user_id, agent_id, query_hash, memory_id) DO UPDATE SET
					helpful = helpful + excluded.helpful, unhelpful = unhelpful + excluded.unhelpful`,
				sc.TenantID, sc.UserID, sc.AgentID, v.QueryHash, v.MemoryID, help, unhelp); err != nil {
				return fmt.Errorf("count success: %w", err)
			}
		}
		m, err := readSignals(ctx, tx, sc, []string{v.MemoryID}, v.QueryHash)
		out = m[v.MemoryID]
		return err
	})
	return out, wrap("record verdict", err)
}

func cond[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

// Verdicts returns the verdicts the scope contains, oldest first.
func (s *Store) Verdicts(ctx context.Context, scope lore.Scope) ([]lore.Verdict, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	var w where
	w.namespace("", scope)
	rows, err := s.r.QueryContext(ctx, `SELECT id, tenant_id, user_id, agent_id, memory_id, helpful, query_hash, delta, created_at FROM verdicts WHERE `+w.sql()+` ORDER BY created_at, id`, w.args...)
	if err != nil {
		return nil, wrap("verdicts", err)
	}
	defer rows.Close()
	out := []lore.Verdict{}
	for rows.Next() {
		var v lore.Verdict
		var at int64
		if err := rows.Scan(&v.ID, &v.Scope.TenantID, &v.Scope.UserID, &v.Scope.AgentID, &v.MemoryID, &v.Helpful, &v.QueryHash, &v.Delta, &at); err != nil {
			return nil, wrap("verdicts", err)
		}
		v.CreatedAt = fromMicros(at)
		out = append(out, v)
	}
	return out, wrap("verdicts", rows.Err())
}

// ResetFeedback removes the scope's verdicts, adjustments and success rows.
func (s *Store) ResetFeedback(ctx context.Context, scope lore.Scope, usage bool) (int, error) {
	if err := scope.Validate(); err != nil {
		return 0, err
	}
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = deleteFeedback(ctx, tx, scope, usage)
		return err
	})
	return int(n), wrap("reset feedback", err)
}

// deleteFeedback removes the verdicts and success rows the scope contains
// and their adjustments; with usage, the usage counts too (an erase). It
// returns the verdicts removed.
func deleteFeedback(ctx context.Context, tx *sql.Tx, scope lore.Scope, usage bool) (int64, error) {
	if scope.RunID != "" {
		return 0, nil // the signals are kept per namespace, never per run
	}
	var w where
	w.namespace("", scope)
	res, err := tx.ExecContext(ctx, `DELETE FROM verdicts WHERE `+w.sql(), w.args...)
	if err != nil {
		return 0, fmt.Errorf("delete verdicts: %w", err)
	}
	n, _ := res.RowsAffected()
	if _, err := tx.ExecContext(ctx, `DELETE FROM success WHERE `+w.sql(), w.args...); err != nil {
		return 0, fmt.Errorf("delete success: %w", err)
	}
	if usage {
		_, err = tx.ExecContext(ctx, `DELETE FROM memory_signals WHERE `+w.sql(), w.args...)
	} else {
		if _, err = tx.ExecContext(ctx, `UPDATE memory_signals SET adjustment = 0, helpful = 0, unhelpful = 0 WHERE `+w.sql(), w.args...); err == nil {
			_, err = tx.ExecContext(ctx, `DELETE FROM memory_signals WHERE returned = 0 AND cited = 0 AND `+w.sql(), w.args...)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("delete memory signals: %w", err)
	}
	return n, nil
}

// RecordUsage adds usage counts.
func (s *Store) RecordUsage(ctx context.Context, usage []lore.UsageRecord) error {
	for i := range usage {
		usage[i].Scope = usage[i].Scope.Namespace()
		if err := usage[i].Scope.Validate(); err != nil {
			return err
		}
		if usage[i].MemoryID == "" || usage[i].Returned < 0 || usage[i].Cited < 0 {
			return lore.Errorf(lore.EINVALID, "usage: a memory id and counts ≥ 0 are required")
		}
	}
	if len(usage) == 0 {
		return nil
	}
	now := s.clock()
	err := s.write(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT INTO memory_signals (tenant_id, user_id, agent_id, memory_id, returned, cited, last_used)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant_id, user_id, agent_id, memory_id) DO UPDATE SET returned = returned + excluded.returned,
				cited = cited + excluded.cited, last_used = max(last_used, excluded.last_used)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, u := range usage {
			at := u.LastUsed
			if at.IsZero() {
				at = now
			}
			if _, err := st.ExecContext(ctx, u.Scope.TenantID, u.Scope.UserID, u.Scope.AgentID, u.MemoryID, u.Returned, u.Cited, micros(at)); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("record usage", err)
}

// Usage returns the usage counts the scope contains.
func (s *Store) Usage(ctx context.Context, scope lore.Scope) ([]lore.UsageRecord, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	var w where
	w.namespace("", scope)
	rows, err := s.r.QueryContext(ctx, `SELECT tenant_id, user_id, agent_id, memory_id, returned, cited, last_used FROM memory_signals
		WHERE (returned > 0 OR cited > 0) AND `+w.sql()+` ORDER BY memory_id`, w.args...)
	if err != nil {
		return nil, wrap("usage", err)
	}
	defer rows.Close()
	out := []lore.UsageRecord{}
	for rows.Next() {
		var u lore.UsageRecord
		var at int64
		if err := rows.Scan(&u.Scope.TenantID, &u.Scope.UserID, &u.Scope.AgentID, &u.MemoryID, &u.Returned, &u.Cited, &at); err != nil {
			return nil, wrap("usage", err)
		}
		u.LastUsed = fromMicros(at)
		out = append(out, u)
	}
	return out, wrap("usage", rows.Err())
}

// Successes returns the success rows the scope contains.
func (s *Store) Successes(ctx context.Context, scope lore.Scope) ([]lore.SuccessRecord, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	var w where
	w.namespace("", scope)
	rows, err := s.r.QueryContext(ctx, `SELECT tenant_id, user_id, agent_id, query_hash, memory_id, helpful, unhelpful FROM success
		WHERE `+w.sql()+` ORDER BY query_hash, memory_id`, w.args...)
	if err != nil {
		return nil, wrap("successes", err)
	}
	defer rows.Close()
	out := []lore.SuccessRecord{}
	for rows.Next() {
		var r lore.SuccessRecord
		if err := rows.Scan(&r.Scope.TenantID, &r.Scope.UserID, &r.Scope.AgentID, &r.QueryHash, &r.MemoryID, &r.Helpful, &r.Unhelpful); err != nil {
			return nil, wrap("successes", err)
		}
		out = append(out, r)
	}
	return out, wrap("successes", rows.Err())
}

// MemorySignals returns the namespace's signals for the memories named.
func (s *Store) MemorySignals(ctx context.Context, ns lore.Scope, ids []string, queryHash string) (map[string]lore.MemorySignal, error) {
	ns = ns.Namespace()
	if err := ns.Validate(); err != nil {
		return nil, err
	}
	// s.reads keeps the statements prepared: a search runs them every
	// time, and preparing them anew cost as much as running them.
	out, err := readSignals(ctx, s.reads, ns, ids, queryHash)
	return out, wrap("memory signals", err)
}

// signalsQuery reads the signal rows of the ids in a JSON array; CROSS
// JOIN keeps the ids as the outer loop: one key lookup each.
const signalsQuery = `SELECT m.memory_id, m.adjustment, m.helpful, m.unhelpful, m.returned, m.cited, m.last_used
	FROM json_each(?) AS j CROSS JOIN memory_signals AS m
	WHERE m.tenant_id = ? AND m.user_id = ? AND m.agent_id = ? AND m.memory_id = j.value`

// successQuery reads a namespace's success rows for one query hash.
const successQuery = `SELECT memory_id, helpful, unhelpful FROM success
	WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND query_hash = ?`

// readSignals reads the memories' rows by probing the namespace's primary
// key once per id, the ids passed as one JSON array: the statement's text
// stays the same for any number of ids, so SQLite parses a short statement
// instead of one with a placeholder per candidate (a search asks for a few
// hundred), and no id count meets SQLite's variable limit. The success rows
// are few per query, so they are read by the query's hash alone and kept
// for the ids asked.
func readSignals(ctx context.Context, q querier, ns lore.Scope, ids []string, queryHash string) (map[string]lore.MemorySignal, error) {
	out := map[string]lore.MemorySignal{}
	if len(ids) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, signalsQuery, string(list), ns.TenantID, ns.UserID, ns.AgentID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var m lore.MemorySignal
		var at int64
		if err := rows.Scan(&m.MemoryID, &m.Adjustment, &m.Helpful, &m.Unhelpful, &m.Returned, &m.Cited, &at); err != nil {
			rows.Close()
			return nil, err
		}
		if at > 0 {
			m.LastUsed = fromMicros(at)
		}
		out[m.MemoryID] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil || queryHash == "" {
		return out, err
	}
	asked := make(map[string]bool, len(ids))
	for _, id := range ids {
		asked[id] = true
	}
	rows, err = q.QueryContext(ctx, successQuery, ns.TenantID, ns.UserID, ns.AgentID, queryHash)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var h, u int
		if err := rows.Scan(&id, &h, &u); err != nil {
			return nil, err
		}
		if !asked[id] {
			continue
		}
		m := out[id]
		m.MemoryID, m.SuccessHelpful, m.SuccessUnhelpful = id, h, u
		out[id] = m
	}
	return out, rows.Err()
}

// BackfillSuccess recounts the success table from the verdicts.
func (s *Store) BackfillSuccess(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		// The SELECT's WHERE keeps SQLite from reading ON CONFLICT as a
		// join clause; the DO UPDATE's WHERE leaves equal rows untouched,
		// so they are not counted.
		res, err := tx.ExecContext(ctx, `INSERT INTO success (tenant_id, user_id, agent_id, query_hash, memory_id, helpful, unhelpful)
			SELECT tenant_id, user_id, agent_id, query_hash, memory_id, sum(helpful), sum(1 - helpful) FROM verdicts
			WHERE query_hash != '' GROUP BY tenant_id, user_id, agent_id, query_hash, memory_id
			ON CONFLICT (tenant_id, user_id, agent_id, query_hash, memory_id) DO UPDATE SET
				helpful = excluded.helpful, unhelpful = excluded.unhelpful
			WHERE helpful != excluded.helpful OR unhelpful != excluded.unhelpful`)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), wrap("backfill success", err)
}

// FeatureVerdicts counts the tenant's verdicts per user and memory feature.
func (s *Store) FeatureVerdicts(ctx context.Context, tenantID string) ([]lore.FeatureVerdict, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil || tenantID == "" {
		return nil, lore.Errorf(lore.EINVALID, "a valid tenant_id is required")
	}
	rows, err := s.r.QueryContext(ctx, `SELECT v.user_id, CASE WHEN f.id IS NOT NULL THEN 'fact:' || f.predicate ELSE 'episode:' || e.role END AS feature,
			sum(v.helpful), sum(1 - v.helpful)
		FROM verdicts v
		LEFT JOIN facts f ON f.id = v.memory_id AND f.tenant_id = v.tenant_id
		LEFT JOIN episodes e ON e.id = v.memory_id AND e.tenant_id = v.tenant_id
		WHERE v.tenant_id = ? AND (f.id IS NOT NULL OR e.id IS NOT NULL)
		GROUP BY v.user_id, feature ORDER BY v.user_id, feature`, tenantID)
	if err != nil {
		return nil, wrap("feature verdicts", err)
	}
	defer rows.Close()
	out := []lore.FeatureVerdict{}
	for rows.Next() {
		var fv lore.FeatureVerdict
		if err := rows.Scan(&fv.UserID, &fv.Feature, &fv.Helpful, &fv.Unhelpful); err != nil {
			return nil, wrap("feature verdicts", err)
		}
		out = append(out, fv)
	}
	return out, wrap("feature verdicts", rows.Err())
}
