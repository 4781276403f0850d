package neo4j

import (
	"context"
	"math"
	"time"

	"github.com/lore-memory/lore"
)

var (
	_ lore.QueryLogStore  = (*Store)(nil)
	_ lore.TenantProfiles = (*Store)(nil)
)

// A user's query log is part of their graph: (:User)-[:LOGGED]->(:QueryLog).

// AppendQueryLog stores e in the user's query log.
func (s *Store) AppendQueryLog(ctx context.Context, scope lore.Scope, e lore.QueryLogEntry) error {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return err
	}
	var inferred any
	if e.InferredAt != nil {
		inferred = *e.InferredAt
	}
	_, err := write(ctx, s, "append query log", func(r txRunner) (struct{}, error) {
		_, err := r.run("AppendQueryLog", shape{}, map[string]any{
			"tenant_id": scope.TenantID, "user_id": scope.UserID, "id": e.ID, "query": e.Query, "hash": e.Hash,
			"created_at": e.CreatedAt, "expires_at": e.ExpiresAt, "inferred_at": inferred,
		})
		return struct{}{}, err
	})
	return err
}

// QueryLog returns the user's unexpired entries, oldest first.
func (s *Store) QueryLog(ctx context.Context, scope lore.Scope, f lore.QueryLogFilter) ([]lore.QueryLogEntry, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return nil, err
	}
	now := f.Now
	if now.IsZero() {
		now = s.now()
	}
	limit := int64(math.MaxInt32)
	if f.Limit > 0 {
		limit = int64(f.Limit)
	}
	return read(ctx, s, "query log", func(r txRunner) ([]lore.QueryLogEntry, error) {
		recs, err := r.run("QueryLog", shape{}, map[string]any{"tenant_id": scope.TenantID, "user_id": scope.UserID,
			"now": now.UTC(), "pending": f.Pending, "limit": limit})
		if err != nil {
			return nil, err
		}
		out := make([]lore.QueryLogEntry, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "q")
			if err != nil {
				return nil, err
			}
			out = append(out, lore.QueryLogEntry{ID: p.str("id"), Query: p.str("query"), Hash: p.str("hash"),
				CreatedAt: p.time("created_at"), ExpiresAt: p.time("expires_at"), InferredAt: p.timePtr("inferred_at")})
		}
		return out, nil
	})
}

// MarkQueryLogInferred sets inferred_at on the user's entries ids.
func (s *Store) MarkQueryLogInferred(ctx context.Context, scope lore.Scope, ids []string, at time.Time) error {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	_, err := write(ctx, s, "mark query log", func(r txRunner) (struct{}, error) {
		_, err := r.run("MarkQueryLogInferred", shape{}, map[string]any{"tenant_id": scope.TenantID, "user_id": scope.UserID,
			"ids": stringsParam(ids), "at": at.UTC()})
		return struct{}{}, err
	})
	return err
}

// PurgeQueryLog deletes, in batches, expired entries and the tenant's
// created before before.
func (s *Store) PurgeQueryLog(ctx context.Context, now time.Time, tenantID string, before time.Time) (int, error) {
	params := map[string]any{"now": now.UTC(), "tenant_id": tenantID, "before": before.UTC(), "batch": int64(s.deleteBatch)}
	if tenantID == "" || before.IsZero() {
		params["tenant_id"], params["before"] = "", now.UTC()
	}
	total := 0
	for {
		n, err := write(ctx, s, "purge query log", func(r txRunner) (int64, error) {
			recs, err := r.run("PurgeQueryLog", shape{}, params)
			if err != nil || len(recs) == 0 {
				return 0, err
			}
			v, _ := recs[0].Get("deleted")
			n, _ := v.(int64)
			return n, nil
		})
		if err != nil {
			return total, err
		}
		total += int(n)
		if n < int64(s.deleteBatch) {
			return total, nil
		}
	}
}

// deleteScopeQueryLog removes, in batches, the query logs an erase of sc
// covers: the user's, or the tenant's; an erase of one agent or run leaves
// them.
func (s *Store) deleteScopeQueryLog(ctx context.Context, sc lore.Scope) error {
	if sc.AgentID != "" || sc.RunID != "" {
		return nil
	}
	params := scopeParams(sc)
	params["batch"] = int64(s.deleteBatch)
	for {
		n, err := write(ctx, s, "delete scope query log", func(r txRunner) (int64, error) {
			recs, err := r.run("DeleteScopeQueryLog", shape{User: sc.UserID != ""}, params)
			if err != nil || len(recs) == 0 {
				return 0, err
			}
			v, _ := recs[0].Get("deleted")
			n, _ := v.(int64)
			return n, nil
		})
		if err != nil {
			return err
		}
		if n < int64(s.deleteBatch) {
			return nil
		}
	}
}

// TenantProfileEntries returns the current profile entries of the tenant's
// users, by user id.
func (s *Store) TenantProfileEntries(ctx context.Context, tenantID string) (map[string][]lore.ProfileEntry, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil {
		return nil, err
	}
	return read(ctx, s, "tenant profiles", func(r txRunner) (map[string][]lore.ProfileEntry, error) {
		recs, err := r.run("TenantProfileEntries", shape{}, map[string]any{"tenant_id": tenantID})
		if err != nil {
			return nil, err
		}
		out := map[string][]lore.ProfileEntry{}
		for _, rec := range recs {
			p, err := nodeProps(rec, "p")
			if err != nil {
				return nil, err
			}
			user := p.str("user_id")
			out[user] = append(out[user], lore.ProfileEntry{Key: p.str("key"), Value: p.str("value"), Confidence: p.float("confidence"),
				Source: lore.ProfileSource(p.str("source")), Evidence: []string{}, UpdatedAt: p.time("updated_at")})
		}
		return out, nil
	})
}
