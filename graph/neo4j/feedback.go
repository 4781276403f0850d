package neo4j

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.FeedbackStore = (*Store)(nil)

// nsParams are the exact-namespace parameters of the signal statements.
func nsParams(ns lore.Scope) map[string]any {
	return map[string]any{"tenant_id": ns.TenantID, "user_id": ns.UserID, "agent_id": ns.AgentID}
}

// RecordVerdict locks the memory's signal node, applies the rule to its
// adjustment, and stores the verdict and its success count, in one
// transaction.
func (s *Store) RecordVerdict(ctx context.Context, v *lore.Verdict, rule lore.FeedbackRule) (lore.MemorySignal, error) {
	v.Scope = v.Scope.Namespace()
	if err := v.Validate(); err != nil {
		return lore.MemorySignal{}, err
	}
	if err := rule.Validate(); err != nil {
		return lore.MemorySignal{}, err
	}
	if v.ID == "" {
		v.ID = lore.NewID()
	}
	// Microseconds, as the embedded store keeps them: a listing's cursor
	// (lore.VerdictCursor) names the time to the microsecond.
	v.CreatedAt = s.now().UTC().Truncate(time.Microsecond)
	help, unhelp := int64(0), int64(1)
	if v.Helpful {
		help, unhelp = 1, 0
	}
	return write(ctx, s, "record verdict", func(r txRunner) (lore.MemorySignal, error) {
		p := nsParams(v.Scope)
		p["memory_id"], p["now"] = v.MemoryID, v.CreatedAt
		recs, err := r.run("LockMemorySignal", shape{}, p)
		if err != nil {
			return lore.MemorySignal{}, err
		}
		old, _ := recs[0].Get("adjustment")
		oldAdj, _ := old.(float64)
		adj := rule.Apply(oldAdj, v.Helpful)
		v.Delta = adj - oldAdj
		p["adjustment"], p["help"], p["unhelp"], p["query_hash"] = adj, help, unhelp, v.QueryHash
		p["verdict"] = map[string]any{
			"id": v.ID, "tenant_id": v.Scope.TenantID, "user_id": v.Scope.UserID, "agent_id": v.Scope.AgentID,
			"memory_id": v.MemoryID, "helpful": v.Helpful, "query_hash": v.QueryHash, "delta": v.Delta, "created_at": v.CreatedAt,
		}
		if _, err := r.run("RecordVerdict", shape{}, p); err != nil {
			return lore.MemorySignal{}, err
		}
		if v.QueryHash != "" {
			if _, err := r.run("CountSuccess", shape{}, p); err != nil {
				return lore.MemorySignal{}, err
			}
		}
		m, err := readSignals(r, v.Scope, []string{v.MemoryID}, v.QueryHash)
		return m[v.MemoryID], err
	})
}

// Verdicts returns the verdicts the scope contains, oldest first.
func (s *Store) Verdicts(ctx context.Context, scope lore.Scope) ([]lore.Verdict, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	return read(ctx, s, "verdicts", func(r txRunner) ([]lore.Verdict, error) {
		recs, err := r.run("Verdicts", scopeShape(scope), scopeParams(scope))
		if err != nil {
			return nil, err
		}
		out := make([]lore.Verdict, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "v")
			if err != nil {
				return nil, err
			}
			out = append(out, lore.Verdict{ID: p.str("id"), Scope: p.scope(), MemoryID: p.str("memory_id"), Helpful: p.bool("helpful"),
				QueryHash: p.str("query_hash"), Delta: p.float("delta"), CreatedAt: p.time("created_at")})
		}
		return out, nil
	})
}

// ResetFeedback removes the scope's verdicts and success rows and zeroes
// its adjustments.
func (s *Store) ResetFeedback(ctx context.Context, scope lore.Scope, usage bool) (int, error) {
	if err := scope.Validate(); err != nil {
		return 0, err
	}
	return s.deleteFeedback(ctx, scope, usage)
}

// deleteFeedback removes the scope's verdicts and success rows in batches,
// then its signal nodes (usage: all of them, an erase) or their feedback
// part. It returns the verdicts removed. A scope naming a run holds none.
func (s *Store) deleteFeedback(ctx context.Context, scope lore.Scope, usage bool) (int, error) {
	if scope.RunID != "" {
		return 0, nil
	}
	sh := scopeShape(scope)
	params := scopeParams(scope)
	params["batch"] = int64(s.deleteBatch)
	steps := []string{"DeleteScopeVerdicts", "DeleteScopeSuccess"}
	if usage {
		steps = append(steps, "DeleteScopeMemorySignals")
	}
	verdicts := 0
	for i, stmt := range steps {
		for {
			n, err := write(ctx, s, "delete feedback", func(r txRunner) (int64, error) {
				recs, err := r.run(stmt, sh, params)
				if err != nil {
					return 0, err
				}
				v, _ := recs[0].Get("deleted")
				n, _ := v.(int64)
				return n, nil
			})
			if err != nil {
				return verdicts, err
			}
			if i == 0 {
				verdicts += int(n)
			}
			if n < int64(s.deleteBatch) {
				break
			}
		}
	}
	if !usage {
		_, err := write(ctx, s, "reset feedback", func(r txRunner) (struct{}, error) {
			_, err := r.run("ResetMemorySignals", sh, params)
			return struct{}{}, err
		})
		if err != nil {
			return verdicts, err
		}
	}
	return verdicts, nil
}

// RecordUsage adds usage counts, one statement per namespace.
func (s *Store) RecordUsage(ctx context.Context, usage []lore.UsageRecord) error {
	byNS := map[lore.Scope][]map[string]any{}
	var order []lore.Scope
	now := s.now().UTC()
	for i := range usage {
		u := &usage[i]
		u.Scope = u.Scope.Namespace()
		if err := u.Scope.Validate(); err != nil {
			return err
		}
		if u.MemoryID == "" || u.Returned < 0 || u.Cited < 0 {
			return lore.Errorf(lore.EINVALID, "usage: a memory id and counts ≥ 0 are required")
		}
		at := u.LastUsed
		if at.IsZero() {
			at = now
		}
		if _, ok := byNS[u.Scope]; !ok {
			order = append(order, u.Scope)
		}
		byNS[u.Scope] = append(byNS[u.Scope], map[string]any{"memory_id": u.MemoryID, "returned": int64(u.Returned), "cited": int64(u.Cited), "last_used": at.UTC()})
	}
	if len(order) == 0 {
		return nil
	}
	_, err := write(ctx, s, "record usage", func(r txRunner) (struct{}, error) {
		for _, ns := range order {
			p := nsParams(ns)
			p["rows"] = byNS[ns]
			if _, err := r.run("RecordUsage", shape{}, p); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, nil
	})
	return err
}

// Usage returns the usage counts the scope contains.
func (s *Store) Usage(ctx context.Context, scope lore.Scope) ([]lore.UsageRecord, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	return read(ctx, s, "usage", func(r txRunner) ([]lore.UsageRecord, error) {
		recs, err := r.run("Usage", scopeShape(scope), scopeParams(scope))
		if err != nil {
			return nil, err
		}
		out := make([]lore.UsageRecord, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "m")
			if err != nil {
				return nil, err
			}
			out = append(out, lore.UsageRecord{Scope: p.scope(), MemoryID: p.str("memory_id"), Returned: p.int("returned"), Cited: p.int("cited"), LastUsed: p.time("last_used")})
		}
		return out, nil
	})
}

// Successes returns the success rows the scope contains.
func (s *Store) Successes(ctx context.Context, scope lore.Scope) ([]lore.SuccessRecord, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	return read(ctx, s, "successes", func(r txRunner) ([]lore.SuccessRecord, error) {
		recs, err := r.run("Successes", scopeShape(scope), scopeParams(scope))
		if err != nil {
			return nil, err
		}
		out := make([]lore.SuccessRecord, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "s")
			if err != nil {
				return nil, err
			}
			out = append(out, lore.SuccessRecord{Scope: p.scope(), QueryHash: p.str("query_hash"), MemoryID: p.str("memory_id"), Helpful: p.int("helpful"), Unhelpful: p.int("unhelpful")})
		}
		return out, nil
	})
}

// MemorySignals returns the namespace's signals for the memories named.
func (s *Store) MemorySignals(ctx context.Context, ns lore.Scope, ids []string, queryHash string) (map[string]lore.MemorySignal, error) {
	ns = ns.Namespace()
	if err := ns.Validate(); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return map[string]lore.MemorySignal{}, nil
	}
	return read(ctx, s, "memory signals", func(r txRunner) (map[string]lore.MemorySignal, error) {
		return readSignals(r, ns, ids, queryHash)
	})
}

func readSignals(r txRunner, ns lore.Scope, ids []string, queryHash string) (map[string]lore.MemorySignal, error) {
	out := map[string]lore.MemorySignal{}
	p := nsParams(ns)
	p["ids"], p["query_hash"] = ids, queryHash
	recs, err := r.run("MemorySignals", shape{}, p)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		n, err := nodeProps(rec, "m")
		if err != nil {
			return nil, err
		}
		out[n.str("memory_id")] = lore.MemorySignal{MemoryID: n.str("memory_id"), Adjustment: n.float("adjustment"), Helpful: n.int("helpful"),
			Unhelpful: n.int("unhelpful"), Returned: n.int("returned"), Cited: n.int("cited"), LastUsed: n.time("last_used")}
	}
	if queryHash == "" {
		return out, nil
	}
	recs, err = r.run("SuccessFor", shape{}, p)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		n, err := nodeProps(rec, "s")
		if err != nil {
			return nil, err
		}
		id := n.str("memory_id")
		m := out[id]
		m.MemoryID, m.SuccessHelpful, m.SuccessUnhelpful = id, n.int("helpful"), n.int("unhelpful")
		out[id] = m
	}
	return out, nil
}

// BackfillSuccess rebuilds the success rows from the verdicts.
func (s *Store) BackfillSuccess(ctx context.Context) (int, error) {
	return write(ctx, s, "backfill success", func(r txRunner) (int, error) {
		recs, err := r.run("BackfillSuccess", shape{}, nil)
		if err != nil || len(recs) == 0 {
			return 0, err
		}
		v, _ := recs[0].Get("changed")
		n, _ := v.(int64)
		return int(n), nil
	})
}

// FeatureVerdicts counts the tenant's verdicts per user and memory feature.
func (s *Store) FeatureVerdicts(ctx context.Context, tenantID string) ([]lore.FeatureVerdict, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil || tenantID == "" {
		return nil, lore.Errorf(lore.EINVALID, "a valid tenant_id is required")
	}
	return read(ctx, s, "feature verdicts", func(r txRunner) ([]lore.FeatureVerdict, error) {
		recs, err := r.run("FeatureVerdicts", shape{}, map[string]any{"tenant_id": tenantID})
		if err != nil {
			return nil, err
		}
		out := make([]lore.FeatureVerdict, 0, len(recs))
		for _, rec := range recs {
			u, _ := rec.Get("user_id")
			f, _ := rec.Get("feature")
			h, _ := rec.Get("helpful")
			n, _ := rec.Get("unhelpful")
			us, _ := u.(string)
			fs, _ := f.(string)
			hi, _ := h.(int64)
			ni, _ := n.(int64)
			out = append(out, lore.FeatureVerdict{UserID: us, Feature: fs, Helpful: int(hi), Unhelpful: int(ni)})
		}
		return out, nil
	})
}
