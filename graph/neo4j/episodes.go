package neo4j

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lore-memory/lore"
)

// AddEpisodes stores episodes and their ADD events in one transaction,
// assigning ID, CreatedAt and UpdatedAt where empty.
func (s *Store) AddEpisodes(ctx context.Context, episodes []*lore.Episode) error {
	if len(episodes) == 0 {
		return nil
	}
	now := s.now().UTC()
	rows := make([]map[string]any, 0, len(episodes))
	for _, ep := range episodes {
		if err := ep.Scope.Validate(); err != nil {
			return err
		}
		if err := lore.ValidateID("id", ep.ID); err != nil {
			return err
		}
		if ep.ID == "" {
			ep.ID = lore.NewID()
		}
		if ep.CreatedAt.IsZero() {
			ep.CreatedAt = lore.BatchTime(now, len(rows))
		}
		if ep.UpdatedAt.IsZero() {
			ep.UpdatedAt = ep.CreatedAt
		}
		md, err := jsonParam(ep.Metadata)
		if err != nil {
			return err
		}
		hist := historyRow(ep.ID, ep.Scope, lore.EventAdd, "", "", ep.CreatedAt)
		hist["after"] = ep.Content
		rows = append(rows, map[string]any{
			"episode": map[string]any{
				"id": ep.ID, "tenant_id": ep.Scope.TenantID, "user_id": ep.Scope.UserID,
				"agent_id": ep.Scope.AgentID, "run_id": ep.Scope.RunID,
				"role": ep.Role, "speaker": ep.Speaker, "content": ep.Content,
				"occurred_at": ep.OccurredAt.UTC(), "created_at": ep.CreatedAt.UTC(), "updated_at": ep.UpdatedAt.UTC(),
				"source_id": ep.SourceID, "metadata": md, "verbatim": ep.Verbatim, "expires_at": utcPtr(ep.ExpiresAt),
			},
			"history": hist,
		})
	}
	speakers := speakerCounts(episodes)
	_, err := write(ctx, s, "add episodes", func(r txRunner) (struct{}, error) {
		if _, err := r.run("AddEpisodes", shape{}, map[string]any{"rows": rows}); err != nil {
			return struct{}{}, err
		}
		if err := r.outbox(episodeEntries(episodes)...); err != nil {
			return struct{}{}, err
		}
		if len(speakers) == 0 {
			return struct{}{}, nil
		}
		_, err := r.run("AddSpeakers", shape{}, map[string]any{"speakers": speakers})
		return struct{}{}, err
	})
	return err
}

// speakerCounts counts the episodes per speaker name and episode scope, the
// rows of AddSpeakers.
func speakerCounts(episodes []*lore.Episode) []map[string]any {
	type key struct {
		scope lore.Scope
		name  string
	}
	counts := map[key]int64{}
	var order []key
	for _, ep := range episodes {
		if ep.Speaker == "" {
			continue
		}
		k := key{ep.Scope, ep.Speaker}
		if counts[k] == 0 {
			order = append(order, k)
		}
		counts[k]++
	}
	// One lock order for every batch: two batches that share speakers
	// then never wait on each other's locks in a cycle.
	slices.SortFunc(order, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.scope.TenantID, b.scope.TenantID), cmp.Compare(a.scope.UserID, b.scope.UserID),
			cmp.Compare(a.scope.AgentID, b.scope.AgentID), cmp.Compare(a.scope.RunID, b.scope.RunID),
			cmp.Compare(a.name, b.name))
	})
	out := make([]map[string]any, 0, len(order))
	for _, k := range order {
		out = append(out, map[string]any{
			"tenant_id": k.scope.TenantID, "user_id": k.scope.UserID, "agent_id": k.scope.AgentID,
			"run_id": k.scope.RunID, "name": k.name, "episodes": counts[k],
		})
	}
	return out
}

// FindEpisodes returns the episodes the filter selects, by OccurredAt.
func (s *Store) FindEpisodes(ctx context.Context, f lore.EpisodeFilter) ([]*lore.Episode, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, err
	}
	skip, limit, err := limitParams(f.Limit, f.Offset)
	if err != nil {
		return nil, err
	}
	sh := scopeShape(f.Scope)
	sh.IDs, sh.SourceIDs, sh.Since, sh.Until = f.IDs != nil, f.SourceIDs != nil, f.Since != nil, f.Until != nil
	params := scopeParams(f.Scope)
	params["ids"], params["source_ids"] = stringsParam(f.IDs), stringsParam(f.SourceIDs)
	params["since"], params["until"], params["now"] = utcPtr(f.Since), utcPtr(f.Until), s.now().UTC()
	params["offset"], params["limit"] = skip, limit
	return read(ctx, s, "find episodes", func(r txRunner) ([]*lore.Episode, error) {
		recs, err := r.run("FindEpisodes", sh, params)
		if err != nil {
			return nil, err
		}
		out := make([]*lore.Episode, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "e")
			if err != nil {
				return nil, err
			}
			ep, err := toEpisode(p)
			if err != nil {
				return nil, err
			}
			out = append(out, ep)
		}
		return out, nil
	})
}

// Speakers returns the distinct non-empty speakers of the scope's episodes,
// sorted, from the per-speaker counts AddEpisodes and DeleteEpisode keep: a
// few nodes per user rather than every episode.
func (s *Store) Speakers(ctx context.Context, scope lore.Scope) ([]string, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	return read(ctx, s, "speakers", func(r txRunner) ([]string, error) {
		recs, err := r.run("Speakers", scopeShape(scope), scopeParams(scope))
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(recs))
		for _, rec := range recs {
			v, _ := rec.Get("speaker")
			sp, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("speaker is %T, want a string", v)
			}
			out = append(out, sp)
		}
		return out, nil
	})
}

// UpdateEpisode changes an episode's content or metadata and records an
// UPDATE event. It returns ENOTFOUND if the scope holds no such episode.
func (s *Store) UpdateEpisode(ctx context.Context, scope lore.Scope, id string, upd lore.EpisodeUpdate) (*lore.Episode, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	now := s.now().UTC()
	md, err := jsonParam(upd.Metadata)
	if err != nil {
		return nil, err
	}
	params := scopeParams(scope)
	params["id"], params["now"], params["metadata"] = id, now, md
	params["content"] = nil
	if upd.Content != nil {
		params["content"] = *upd.Content
	}
	params["history"] = historyRow(id, scope, lore.EventUpdate, upd.Actor, upd.Reason, now)
	return write(ctx, s, "update episode", func(r txRunner) (*lore.Episode, error) {
		entries, err := r.episodeOutbox(scope, id)
		if err != nil {
			return nil, err
		}
		recs, err := r.run("UpdateEpisode", scopeShape(scope), params)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "episode %q not found", id)
		}
		if err := r.outbox(entries...); err != nil {
			return nil, err
		}
		p, err := nodeProps(recs[0], "e")
		if err != nil {
			return nil, err
		}
		return toEpisode(p)
	})
}

// DeleteEpisode removes an episode, with its ranking signals, and records a
// DELETE event. Facts keep the episode's id among their sources.
func (s *Store) DeleteEpisode(ctx context.Context, scope lore.Scope, id string, actor string) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	params := scopeParams(scope)
	params["id"] = id
	params["history"] = historyRow(id, scope, lore.EventDelete, actor, "", s.now())
	return s.deleteOne(ctx, "DeleteEpisode", "episode", id, scope, params, txRunner.episodeOutbox)
}

// deleteOne runs a statement that deletes one memory and returns ENOTFOUND
// when it deleted none. The memory's ranking signals (verdicts, success
// rows, signal nodes) go in the same transaction, in every namespace of the
// tenant, with the outbox entries that outbox reads before the deletion.
func (s *Store) deleteOne(ctx context.Context, stmt, what, id string, scope lore.Scope, params map[string]any,
	outbox func(txRunner, lore.Scope, string) ([]lore.OutboxEntry, error)) error {
	_, err := write(ctx, s, "delete "+what, func(r txRunner) (struct{}, error) {
		entries, err := outbox(r, scope, id)
		if err != nil {
			return struct{}{}, err
		}
		recs, err := r.run(stmt, scopeShape(scope), params)
		if err != nil {
			return struct{}{}, err
		}
		if n, _ := recs[0].Get("deleted"); n == int64(0) {
			return struct{}{}, lore.Errorf(lore.ENOTFOUND, "%s %q not found", what, id)
		}
		// Success rows are found through the signal nodes, so they go first.
		for _, st := range []string{"DeleteMemoryVerdicts", "DeleteMemorySuccess", "DeleteMemorySignals"} {
			if _, err := r.run(st, shape{}, map[string]any{"tenant_id": scope.TenantID, "id": id}); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, r.outbox(entries...)
	})
	return err
}

// History returns a memory's events, oldest first, or ENOTFOUND when the
// scope holds none.
func (s *Store) History(ctx context.Context, scope lore.Scope, memoryID string) ([]lore.HistoryEvent, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	params := scopeParams(scope)
	params["memory_id"] = memoryID
	return read(ctx, s, "history", func(r txRunner) ([]lore.HistoryEvent, error) {
		recs, err := r.run("History", scopeShape(scope), params)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "memory %q not found", memoryID)
		}
		out := make([]lore.HistoryEvent, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "h")
			if err != nil {
				return nil, err
			}
			out = append(out, toHistory(p))
		}
		return out, nil
	})
}

// orNow returns t in UTC, or fallback when t is zero.
func orNow(t, fallback time.Time) time.Time {
	if t.IsZero() {
		return fallback
	}
	return t.UTC()
}
