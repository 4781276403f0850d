package neo4j

import (
	"context"

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
	params := scopeParams(scope)
	params["before_at"], params["before_id"], params["limit"] = utc(at), id, int64(max(page.Limit, 0))
	return read(ctx, s, "list verdicts", func(r txRunner) ([]lore.Verdict, error) {
		recs, err := r.run("ListVerdicts", scopeShape(scope), params)
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
