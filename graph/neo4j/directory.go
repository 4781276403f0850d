package neo4j

import (
	"context"

	"github.com/lore-memory/lore"
)

var _ lore.Directory = (*Store)(nil)

// ScopeOf returns the scope of the fact, episode or (deleted) history
// with that id in the tenant.
func (s *Store) ScopeOf(ctx context.Context, tenantID, id string) (lore.Scope, error) {
	if err := lore.ValidateID("tenant_id", tenantID); err != nil {
		return lore.Scope{}, err
	}
	if err := lore.ValidateID("id", id); err != nil {
		return lore.Scope{}, err
	}
	sc, err := read(ctx, s, "scope of", func(r txRunner) (*lore.Scope, error) {
		recs, err := r.run("ScopeOf", shape{}, map[string]any{"tenant_id": tenantID, "id": id})
		if err != nil || len(recs) == 0 {
			return nil, err
		}
		p := props(recs[0].AsMap())
		sc := p.scope()
		return &sc, nil
	})
	if err != nil {
		return lore.Scope{}, err
	}
	if sc == nil {
		return lore.Scope{}, lore.Errorf(lore.ENOTFOUND, "memory %q not found", id)
	}
	return *sc, nil
}

// Scopes lists the tenant's scopes that hold episodes or facts.
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
	return read(ctx, s, "scopes", func(r txRunner) ([]lore.ScopeSummary, error) {
		recs, err := r.run("Scopes", shape{}, map[string]any{"tenant_id": tenantID, "limit": int64(limit)})
		if err != nil {
			return nil, err
		}
		out := make([]lore.ScopeSummary, 0, len(recs))
		for _, rec := range recs {
			p := props(rec.AsMap())
			p["tenant_id"] = tenantID
			out = append(out, lore.ScopeSummary{Scope: p.scope(), Memories: p.int("n"), FirstAt: p.time("first"), LastAt: p.time("last")})
		}
		return out, nil
	})
}

var _ lore.QueueCounter = (*Store)(nil)

// CountJobs counts the unfinished jobs by state.
func (s *Store) CountJobs(ctx context.Context, tenantID string) (map[lore.JobStatus]int, error) {
	return read(ctx, s, "count jobs", func(r txRunner) (map[lore.JobStatus]int, error) {
		recs, err := r.run("CountJobs", shape{}, map[string]any{"tenant_id": tenantID})
		if err != nil {
			return nil, err
		}
		out := map[lore.JobStatus]int{}
		for _, rec := range recs {
			p := props(rec.AsMap())
			out[lore.JobStatus(p.str("status"))] = p.int("n")
		}
		return out, nil
	})
}
