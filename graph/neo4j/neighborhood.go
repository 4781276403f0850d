package neo4j

import (
	"context"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
)

// Neighborhood returns the facts within q.MaxHops (1 or 2) of the seed
// entities, nearest hops first, then most recently seen. Every step of the
// walk stays inside q.Scope.
func (s *Store) Neighborhood(ctx context.Context, q lore.NeighborhoodQuery) ([]lore.GraphHit, error) {
	if err := q.Scope.Validate(); err != nil {
		return nil, err
	}
	if len(q.SeedIDs) == 0 {
		return []lore.GraphHit{}, nil
	}
	hops := min(max(q.MaxHops, 1), 2)
	limit := q.Limit
	if limit <= 0 {
		limit = defaultNeighborhoodLimit
	}
	sh := scopeShape(q.Scope)
	sh.Current = !q.IncludeInvalidated
	params := scopeParams(q.Scope)
	params["seed_ids"], params["now"], params["limit"] = q.SeedIDs, s.now().UTC(), int64(limit)
	params["fanout"] = int64(neighborFanout)
	return read(ctx, s, "neighborhood", func(r txRunner) ([]lore.GraphHit, error) {
		out := []lore.GraphHit{}
		seen := map[string]bool{}
		add := func(recs []*neo4j.Record, hop int) error {
			for _, rec := range recs {
				p, err := nodeProps(rec, "f")
				if err != nil {
					return err
				}
				f, err := toFact(p)
				if err != nil {
					return err
				}
				if seen[f.ID] || len(out) >= limit {
					continue
				}
				seen[f.ID] = true
				seed, _ := rec.Get("seed_id")
				seedID, _ := seed.(string)
				out = append(out, lore.GraphHit{Fact: f, Hops: hop, SeedID: seedID})
			}
			return nil
		}
		recs, err := r.run("NeighborhoodOneHop", sh, params)
		if err != nil {
			return nil, err
		}
		if err := add(recs, 1); err != nil {
			return nil, err
		}
		if hops < 2 || len(out) >= limit {
			return out, nil
		}
		exclude := make([]string, 0, len(out))
		for _, h := range out {
			exclude = append(exclude, h.Fact.ID)
		}
		params["exclude"], params["limit"] = exclude, int64(limit-len(out))
		recs, err = r.run("NeighborhoodTwoHops", sh, params)
		if err != nil {
			return nil, err
		}
		if err := add(recs, 2); err != nil {
			return nil, err
		}
		return out, nil
	})
}
