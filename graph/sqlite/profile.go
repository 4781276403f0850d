package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/lore-memory/lore"
)

var _ lore.ProfileStore = (*Store)(nil)

// profileColumns lists the columns scanProfile reads, in order.
const profileColumns = `key, value, confidence, source, evidence, updated_at`

// PutProfileEntry writes e under lore.PlanProfileWrite's precedence rules,
// reading the stored entries of its key in the same transaction.
func (s *Store) PutProfileEntry(ctx context.Context, scope lore.Scope, e lore.ProfileEntry) (lore.ProfileWrite, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return lore.ProfileWrite{}, err
	}
	if err := e.Normalize(s.clock()); err != nil {
		return lore.ProfileWrite{}, err
	}
	e.UpdatedAt = normTime(e.UpdatedAt)
	var out lore.ProfileWrite
	err := s.write(ctx, func(tx *sql.Tx) error {
		// value_norm comes along as each entry's ValueKey: under
		// encryption it is a keyed token, not the normalised value.
		stored, err := queryProfile(ctx, tx, `SELECT `+profileColumns+`, value_norm FROM profile_entries
			WHERE tenant_id = ? AND user_id = ? AND key = ? ORDER BY value_norm`, scope.TenantID, scope.UserID, e.Key)
		if err != nil {
			return err
		}
		out = lore.PlanProfileWrite(stored, e)
		if !out.Written {
			return nil
		}
		now := micros(s.clock())
		for _, r := range out.Replaced {
			ev, _ := json.Marshal(r.Evidence)
			if _, err := tx.ExecContext(ctx, `INSERT INTO profile_history (tenant_id, user_id, key, value, confidence, source, evidence, updated_at, replaced_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, scope.TenantID, scope.UserID, r.Key, r.Value, r.Confidence, string(r.Source), string(ev), micros(r.UpdatedAt), now); err != nil {
				return fmt.Errorf("profile history: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM profile_entries WHERE tenant_id = ? AND user_id = ? AND key = ? AND value_norm = ?`,
				scope.TenantID, scope.UserID, r.Key, lore.ProfileValueKey(r)); err != nil {
				return fmt.Errorf("replace profile entry: %w", err)
			}
		}
		p := out.Entry
		ev, _ := json.Marshal(p.Evidence)
		_, err = tx.ExecContext(ctx, `INSERT INTO profile_entries (tenant_id, user_id, value_norm, `+profileColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (tenant_id, user_id, key, value_norm) DO UPDATE SET
				value = excluded.value, confidence = excluded.confidence, source = excluded.source,
				evidence = excluded.evidence, updated_at = excluded.updated_at`,
			scope.TenantID, scope.UserID, lore.ProfileValueKey(*p), p.Key, p.Value, p.Confidence, string(p.Source), string(ev), micros(p.UpdatedAt))
		return err
	})
	if err != nil {
		return lore.ProfileWrite{}, wrap("put profile entry", err)
	}
	return out, nil
}

// ProfileEntries returns the user's current entries by key, then value.
func (s *Store) ProfileEntries(ctx context.Context, scope lore.Scope) ([]lore.ProfileEntry, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return nil, err
	}
	out, err := queryProfile(ctx, s.reads, `SELECT `+profileColumns+` FROM profile_entries
		WHERE tenant_id = ? AND user_id = ? ORDER BY key, value_norm`, scope.TenantID, scope.UserID)
	return out, wrap("profile entries", err)
}

// ProfileHistory returns the replaced entries of key ("" for all), oldest
// first.
func (s *Store) ProfileHistory(ctx context.Context, scope lore.Scope, key string) ([]lore.ProfileEntry, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return nil, err
	}
	var w where
	w.add("tenant_id = ?", scope.TenantID)
	w.add("user_id = ?", scope.UserID)
	if key != "" {
		w.add("key = ?", key)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+profileColumns+`, replaced_at FROM profile_history WHERE `+w.sql()+` ORDER BY seq`, w.args...)
	if err != nil {
		return nil, wrap("profile history", err)
	}
	defer rows.Close()
	out := []lore.ProfileEntry{}
	for rows.Next() {
		var replaced int64
		e, err := scanProfile(rows, &replaced)
		if err != nil {
			return nil, wrap("profile history", err)
		}
		t := fromMicros(replaced)
		e.ReplacedAt = &t
		out = append(out, e)
	}
	return out, wrap("profile history", rows.Err())
}

// DeleteProfileKey removes key's entries and history.
func (s *Store) DeleteProfileKey(ctx context.Context, scope lore.Scope, key string) (int, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return 0, err
	}
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM profile_entries WHERE tenant_id = ? AND user_id = ? AND key = ?`, scope.TenantID, scope.UserID, key)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM profile_history WHERE tenant_id = ? AND user_id = ? AND key = ?`, scope.TenantID, scope.UserID, key)
		return err
	})
	if err != nil {
		return 0, wrap("delete profile key", err)
	}
	if n == 0 {
		return 0, lore.Errorf(lore.ENOTFOUND, "profile key %q not found", key)
	}
	return int(n), s.scrub(ctx)
}

// deleteScopeProfile removes the profiles an erase of sc covers: the
// user's, when sc is a whole user, or the tenant's, when sc is a tenant.
// An erase of one agent or run of a user leaves the user's profile.
func deleteScopeProfile(ctx context.Context, tx *sql.Tx, sc lore.Scope) error {
	if sc.AgentID != "" || sc.RunID != "" {
		return nil
	}
	for _, table := range []string{"profile_entries", "profile_history"} {
		var w where
		w.add("tenant_id = ?", sc.TenantID)
		if sc.UserID != "" {
			w.add("user_id = ?", sc.UserID)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+w.sql(), w.args...); err != nil {
			return fmt.Errorf("delete %s: %w", table, err)
		}
	}
	return nil
}

// queryProfile runs a select of profileColumns, then value_norm when the
// query selects it (into ValueKey).
func queryProfile(ctx context.Context, q querier, query string, args ...any) ([]lore.ProfileEntry, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := []lore.ProfileEntry{}
	for rows.Next() {
		var valueKey string
		var extra []any
		if cols[len(cols)-1] == "value_norm" {
			extra = append(extra, &valueKey)
		}
		e, err := scanProfile(rows, extra...)
		if err != nil {
			return nil, err
		}
		e.ValueKey = valueKey
		out = append(out, e)
	}
	return out, rows.Err()
}

// scanProfile reads one row of profileColumns, then extra columns.
func scanProfile(row interface{ Scan(...any) error }, extra ...any) (lore.ProfileEntry, error) {
	var e lore.ProfileEntry
	var source, evidence string
	var updated int64
	if err := row.Scan(append([]any{&e.Key, &e.Value, &e.Confidence, &source, &evidence, &updated}, extra...)...); err != nil {
		return e, err
	}
	e.Source, e.UpdatedAt = lore.ProfileSource(source), fromMicros(updated)
	if err := json.Unmarshal([]byte(evidence), &e.Evidence); err != nil {
		return e, fmt.Errorf("profile evidence: %w", err)
	}
	if e.Evidence == nil {
		e.Evidence = []string{}
	}
	return e, nil
}
