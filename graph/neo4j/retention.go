package neo4j

import (
	"context"
	"fmt"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.RetentionStore = (*Store)(nil)

// SweepExpired deletes up to limit expired episodes and facts (limit each)
// with their history, and returns them as they were.
func (s *Store) SweepExpired(ctx context.Context, now time.Time, limit int) (lore.Swept, error) {
	var out lore.Swept
	params := map[string]any{"now": now.UTC(), "limit": int64(max(limit, 1))}
	eps, err := s.sweepRows(ctx, "SweepExpiredEpisodes", params, true)
	if err != nil {
		return out, err
	}
	for _, p := range eps {
		ep, err := toEpisode(p)
		if err != nil {
			return out, err
		}
		out.Episodes = append(out.Episodes, ep)
	}
	facts, err := s.sweepRows(ctx, "SweepExpiredFacts", params, true)
	if err != nil {
		return out, err
	}
	for _, p := range facts {
		f, err := toFact(p)
		if err != nil {
			return out, err
		}
		out.Facts = append(out.Facts, f)
	}
	return out, nil
}

// DropRawText clears the content of up to limit of the tenant's
// conversation episodes stored before before, with their history's text.
func (s *Store) DropRawText(ctx context.Context, tenantID string, before time.Time, limit int) (lore.Swept, error) {
	var out lore.Swept
	rows, err := s.sweepRows(ctx, "DropRawText", map[string]any{"tenant_id": tenantID, "before": before.UTC(), "limit": int64(max(limit, 1))}, false)
	if err != nil {
		return out, err
	}
	for _, p := range rows {
		ep, err := toEpisode(p)
		if err != nil {
			return out, err
		}
		out.Episodes = append(out.Episodes, ep)
	}
	return out, nil
}

// sweepRows runs a retention statement that returns the nodes it changed
// as property maps p. With deleted, those nodes were memories it deleted,
// and their ranking signals go in the same transaction (as in deleteOne).
func (s *Store) sweepRows(ctx context.Context, stmt string, params map[string]any, deleted bool) ([]props, error) {
	return write(ctx, s, "retention", func(r txRunner) ([]props, error) {
		recs, err := r.run(stmt, shape{}, params)
		if err != nil {
			return nil, err
		}
		out := make([]props, 0, len(recs))
		for _, rec := range recs {
			v, _ := rec.Get("p")
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: p is %T, want a map", stmt, v)
			}
			out = append(out, props(m))
		}
		for _, p := range out {
			if !deleted {
				break
			}
			for _, st := range []string{"DeleteMemoryVerdicts", "DeleteMemorySuccess", "DeleteMemorySignals"} {
				if _, err := r.run(st, shape{}, map[string]any{"tenant_id": p.str("tenant_id"), "id": p.str("id")}); err != nil {
					return nil, err
				}
			}
		}
		var entries []lore.OutboxEntry
		for _, p := range out {
			if stmt == "SweepExpiredFacts" {
				entries = append(entries, lore.OutboxEntry{Scope: p.scope(), Kind: lore.KindFact, MemoryID: p.str("id")})
			} else {
				entries = append(entries, episodeEntries([]*lore.Episode{{ID: p.str("id"), Scope: p.scope(), Content: p.str("content")}})...)
			}
		}
		return out, r.outbox(entries...)
	})
}
