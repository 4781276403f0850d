package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lore-memory/lore"
)

// episodeColumns lists the columns scanEpisode reads, in order.
const episodeColumns = `id, tenant_id, user_id, agent_id, run_id, role, speaker, content,
	occurred_at, created_at, updated_at, source_id, metadata, verbatim`

// episodeRead is what queryEpisodes reads: episodeColumns and the
// episode's expiry from expirations (NULL for none).
const episodeRead = episodeColumns + `, (SELECT expires_at FROM expirations x WHERE x.id = episodes.id)`

// AddEpisodes stores episodes in one transaction, assigning ID, CreatedAt
// and UpdatedAt where empty (and OccurredAt, as CreatedAt), and records an
// ADD history event for each.
func (s *Store) AddEpisodes(ctx context.Context, episodes []*lore.Episode) error {
	for _, ep := range episodes {
		if err := ep.Scope.Validate(); err != nil {
			return err
		}
		if err := lore.ValidateID("source_id", ep.SourceID); err != nil {
			return err
		}
		if err := lore.ValidateID("id", ep.ID); err != nil {
			return err
		}
	}
	now := s.clock()
	err := s.write(ctx, func(tx *sql.Tx) error {
		insert, err := tx.PrepareContext(ctx, `INSERT INTO episodes (`+episodeColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer insert.Close()
		for i, ep := range episodes {
			if ep.ID == "" {
				ep.ID = newID()
			}
			if ep.CreatedAt.IsZero() {
				ep.CreatedAt = lore.BatchTime(now, i)
			}
			if ep.UpdatedAt.IsZero() {
				ep.UpdatedAt = ep.CreatedAt
			}
			if ep.OccurredAt.IsZero() {
				ep.OccurredAt = ep.CreatedAt
			}
			ep.CreatedAt, ep.UpdatedAt, ep.OccurredAt = normTime(ep.CreatedAt), normTime(ep.UpdatedAt), normTime(ep.OccurredAt)
			meta, err := encodeJSON(ep.Metadata)
			if err != nil {
				return err
			}
			_, err = insert.ExecContext(ctx, ep.ID, ep.Scope.TenantID, ep.Scope.UserID, ep.Scope.AgentID, ep.Scope.RunID, ep.Role, ep.Speaker, ep.Content,
				micros(ep.OccurredAt), micros(ep.CreatedAt), micros(ep.UpdatedAt), ep.SourceID, meta, ep.Verbatim)
			if err != nil {
				if isConstraint(err) {
					return lore.Errorf(lore.ECONFLICT, "episode %q already exists", ep.ID)
				}
				return err
			}
			if err := setExpiry(ctx, tx, ep.ID, lore.KindEpisode, ep.Scope, ep.ExpiresAt); err != nil {
				return err
			}
			err = addHistory(ctx, tx, lore.HistoryEvent{MemoryID: ep.ID, Scope: ep.Scope, Event: lore.EventAdd,
				After: ep.Content, At: now})
			if err != nil {
				return err
			}
			if err := s.outbox(ctx, tx, episodeEntry(ep, ep.Content)); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("add episodes", err)
}

// FindEpisodes returns the episodes the filter selects, ordered by
// OccurredAt, then CreatedAt, then ID.
func (s *Store) FindEpisodes(ctx context.Context, f lore.EpisodeFilter) ([]*lore.Episode, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, err
	}
	q, args := episodeQuery(f, s.clock())
	eps, err := queryEpisodes(ctx, s.reads, q, args...)
	return eps, wrap("find episodes", err)
}

// Speakers returns the distinct non-empty speakers of the scope's episodes,
// sorted.
func (s *Store) Speakers(ctx context.Context, scope lore.Scope) ([]string, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	q, args := speakersQuery(scope)
	rows, err := s.reads.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("speakers", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var sp string
		if err := rows.Scan(&sp); err != nil {
			return nil, wrap("speakers", err)
		}
		out = append(out, sp)
	}
	return out, wrap("speakers", rows.Err())
}

// speakersQuery returns Speakers' statement and arguments.
func speakersQuery(scope lore.Scope) (string, []any) {
	var w where
	w.scope("", scope)
	w.add("speaker <> ''")
	return `SELECT DISTINCT speaker FROM episodes WHERE ` + w.sql() + ` ORDER BY speaker`, w.args
}

// episodeQuery returns FindEpisodes' statement and arguments as of now.
func episodeQuery(f lore.EpisodeFilter, now time.Time) (string, []any) {
	var w where
	if f.IDs != nil {
		w.scopeFilter("", f.Scope)
	} else {
		w.scope("", f.Scope)
	}
	if f.IDs != nil {
		w.in("id", f.IDs)
	}
	if f.SourceIDs != nil {
		w.in("source_id", f.SourceIDs)
	}
	if f.Since != nil {
		w.add("occurred_at >= ?", micros(*f.Since))
	}
	if f.Until != nil {
		w.add("occurred_at < ?", micros(*f.Until))
	}
	w.live("episodes", now)
	return `SELECT ` + episodeRead + ` FROM episodes WHERE ` + w.sql() +
		` ORDER BY occurred_at, created_at, id` + limitOffset(f.Limit, f.Offset), w.args
}

// UpdateEpisode changes an episode's content or metadata and records an
// UPDATE event with the content before and after.
func (s *Store) UpdateEpisode(ctx context.Context, scope lore.Scope, id string, upd lore.EpisodeUpdate) (*lore.Episode, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	var out *lore.Episode
	err := s.write(ctx, func(tx *sql.Tx) error {
		ep, err := getEpisode(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		before := ep.Content
		if upd.Content != nil {
			ep.Content = *upd.Content
		}
		if upd.Metadata != nil {
			ep.Metadata = upd.Metadata
		}
		ep.UpdatedAt = s.clock()
		meta, err := encodeJSON(ep.Metadata)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE episodes SET content = ?, metadata = ?, updated_at = ? WHERE id = ?`,
			ep.Content, meta, micros(ep.UpdatedAt), ep.ID); err != nil {
			return err
		}
		out = ep
		entries, err := episodeEntries(ctx, tx, ep, before)
		if err != nil {
			return err
		}
		if err := s.outbox(ctx, tx, entries...); err != nil {
			return err
		}
		return addHistory(ctx, tx, lore.HistoryEvent{MemoryID: ep.ID, Scope: ep.Scope, Event: lore.EventUpdate,
			Before: before, After: ep.Content, Actor: upd.Actor, Reason: upd.Reason, At: ep.UpdatedAt})
	})
	return out, wrap("update episode", err)
}

// DeleteEpisode removes an episode, with its ranking signals, and records a
// DELETE event. Facts keep the id among their sources.
func (s *Store) DeleteEpisode(ctx context.Context, scope lore.Scope, id string, actor string) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		ep, err := getEpisode(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM episodes WHERE id = ?`, ep.ID); err != nil {
			return err
		}
		if err := deleteMemorySignals(ctx, tx, ep.Scope.TenantID, ep.ID); err != nil {
			return err
		}
		if err := setExpiry(ctx, tx, ep.ID, "", ep.Scope, nil); err != nil {
			return err
		}
		entries, err := episodeEntries(ctx, tx, ep, ep.Content)
		if err != nil {
			return err
		}
		if err := s.outbox(ctx, tx, entries...); err != nil {
			return err
		}
		return addHistory(ctx, tx, lore.HistoryEvent{MemoryID: ep.ID, Scope: ep.Scope, Event: lore.EventDelete,
			Before: ep.Content, Actor: actor, At: s.clock()})
	})
	return wrap("delete episode", err)
}

// getEpisode reads one episode the scope contains, or returns ENOTFOUND.
func getEpisode(ctx context.Context, q querier, scope lore.Scope, id string) (*lore.Episode, error) {
	var w where
	w.add("id = ?", id)
	w.scopeFilter("", scope)
	eps, err := queryEpisodes(ctx, q, `SELECT `+episodeRead+` FROM episodes WHERE `+w.sql(), w.args...)
	if err != nil {
		return nil, err
	}
	if len(eps) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "episode %q not found", id)
	}
	return eps[0], nil
}

// querier is what both *sql.DB and *sql.Tx offer for reading.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryEpisodes runs a query selecting episodeRead.
func queryEpisodes(ctx context.Context, q querier, query string, args ...any) ([]*lore.Episode, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []*lore.Episode{}
	for rows.Next() {
		var (
			ep                         lore.Episode
			occurred, created, updated int64
			meta                       sql.NullString
			expires                    sql.NullInt64
		)
		if err := rows.Scan(&ep.ID, &ep.Scope.TenantID, &ep.Scope.UserID, &ep.Scope.AgentID, &ep.Scope.RunID,
			&ep.Role, &ep.Speaker, &ep.Content, &occurred, &created, &updated, &ep.SourceID, &meta, &ep.Verbatim, &expires); err != nil {
			return nil, err
		}
		ep.ExpiresAt = fromNullMicros(expires)
		ep.OccurredAt, ep.CreatedAt, ep.UpdatedAt = fromMicros(occurred), fromMicros(created), fromMicros(updated)
		if ep.Metadata, err = decodeJSON(meta); err != nil {
			return nil, fmt.Errorf("episode %s metadata: %w", ep.ID, err)
		}
		out = append(out, &ep)
	}
	return out, rows.Err()
}

// encodeJSON stores a metadata map as JSON text, or NULL when empty.
func encodeJSON(m map[string]any) (any, error) {
	if len(m) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "metadata is not representable as JSON: %v", err)
	}
	return string(b), nil
}

// decodeJSON reads a metadata map stored by encodeJSON.
func decodeJSON(v sql.NullString) (map[string]any, error) {
	if !v.Valid || v.String == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(v.String), &m); err != nil {
		return nil, err
	}
	return m, nil
}
