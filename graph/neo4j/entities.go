package neo4j

import (
	"context"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// MergeEntity upserts an entity by its namespace and normalized name, or by
// an alias, and returns the stored entity.
func (s *Store) MergeEntity(ctx context.Context, e *lore.Entity) (*lore.Entity, error) {
	if err := e.Scope.Validate(); err != nil {
		return nil, err
	}
	ns := e.Scope.Namespace()
	name := strings.TrimSpace(e.Name)
	norm := lore.NormalizeName(name)
	if norm == "" {
		return nil, lore.Errorf(lore.EINVALID, "entity name %q is empty after normalization", e.Name)
	}
	aliases := []string{}
	for _, a := range e.Aliases {
		if a = lore.NormalizeName(a); a != "" && a != norm && !slices.Contains(aliases, a) {
			aliases = append(aliases, a)
		}
	}
	now := s.now().UTC()
	first, last := orNow(e.FirstSeen, now), orNow(e.LastSeen, now)
	if last.Before(first) {
		last = first
	}
	params := scopeParams(ns)
	params["id"], params["name"], params["normalized_name"] = lore.NewID(), name, norm
	params["type"], params["aliases"], params["mentions"] = e.Type, aliases, int64(max(e.Mentions, 1))
	params["first_seen"], params["last_seen"] = first, last

	var err error
	for range mergeRetries {
		var out *lore.Entity
		out, err = write(ctx, s, "merge entity", func(r txRunner) (*lore.Entity, error) {
			recs, err := r.run("MergeEntityFindAlias", shape{}, params)
			if err != nil {
				return nil, err
			}
			stmt := "MergeEntity"
			params["match_id"] = nil
			if len(recs) > 0 {
				id, _ := recs[0].Get("id")
				stmt, params["match_id"] = "MergeEntityAlias", id
			}
			recs, err = r.run(stmt, shape{}, params)
			if err != nil {
				return nil, err
			}
			if len(recs) == 0 {
				// The alias target vanished between the two statements.
				return nil, lore.Errorf(lore.ECONFLICT, "entity %q changed during the merge", name)
			}
			p, err := nodeProps(recs[0], "e")
			if err != nil {
				return nil, err
			}
			return toEntity(p), nil
		})
		// A constraint race between two first MERGEs settles on a retry,
		// which then finds the winner's entity.
		if lore.ErrorCode(err) != lore.ECONFLICT {
			return out, err
		}
	}
	return nil, err
}

// FindEntities returns the namespace's entities that the filter selects, by
// Mentions descending.
func (s *Store) FindEntities(ctx context.Context, f lore.EntityFilter) ([]*lore.Entity, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, err
	}
	skip, limit, err := limitParams(f.Limit, f.Offset)
	if err != nil {
		return nil, err
	}
	ns := f.Scope.Namespace()
	names := make([]string, 0, len(f.Names))
	for _, n := range f.Names {
		if n = lore.NormalizeName(n); n != "" {
			names = append(names, n)
		}
	}
	sh := scopeShape(ns)
	sh.IDs, sh.Names = f.IDs != nil, f.Names != nil
	params := scopeParams(ns)
	params["ids"], params["names"] = stringsParam(f.IDs), names
	params["offset"], params["limit"] = skip, limit
	return read(ctx, s, "find entities", func(r txRunner) ([]*lore.Entity, error) {
		recs, err := r.run("FindEntities", sh, params)
		if err != nil {
			return nil, err
		}
		out := make([]*lore.Entity, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "e")
			if err != nil {
				return nil, err
			}
			out = append(out, toEntity(p))
		}
		return out, nil
	})
}
