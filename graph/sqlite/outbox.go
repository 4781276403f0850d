package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

var (
	_ lore.Outbox       = (*Store)(nil)
	_ lore.TenantLister = (*Store)(nil)
	_ lore.IndexLister  = (*Index)(nil)
)

// outbox records entries in tx, the transaction of the change they follow
// (see lore.Outbox). They wait lore.OutboxGrace for the change's own index
// write to acknowledge them.
func (s *Store) outbox(ctx context.Context, tx *sql.Tx, entries ...lore.OutboxEntry) error {
	now := s.clock()
	tag := lore.OutboxTag(ctx)
	for _, e := range entries {
		_, err := tx.ExecContext(ctx, `INSERT INTO outbox
			(tenant_id, user_id, agent_id, run_id, kind, memory_id, doc_ids, tag, next_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.Scope.TenantID, e.Scope.UserID, e.Scope.AgentID, e.Scope.RunID, string(e.Kind), e.MemoryID,
			strings.Join(e.DocIDs, "\n"), tag, micros(now.Add(lore.OutboxGrace)), micros(now))
		if err != nil {
			return err
		}
	}
	return nil
}

// episodeEntry is the outbox entry of a change to ep, whose documents
// before the change were those of content.
func episodeEntry(ep *lore.Episode, content string) lore.OutboxEntry {
	return lore.OutboxEntry{Scope: ep.Scope, Kind: lore.KindEpisode, MemoryID: ep.ID, DocIDs: lore.EpisodeDocIDs(ep.ID, content)}
}

// factEntries are the outbox entries of a change to a fact: the fact's and
// those of its source episodes, whose documents quote its sentence.
func factEntries(f *lore.Fact) []lore.OutboxEntry {
	out := []lore.OutboxEntry{{Scope: f.Scope, Kind: lore.KindFact, MemoryID: f.ID}}
	for _, id := range f.SourceEpisodeIDs {
		out = append(out, lore.OutboxEntry{Scope: f.Scope, Kind: lore.KindEpisode, MemoryID: id})
	}
	return out
}

// ClaimOutbox implements lore.Outbox.
func (s *Store) ClaimOutbox(ctx context.Context, tenantID string, now time.Time, lease time.Duration, limit int) ([]lore.OutboxEntry, error) {
	if limit <= 0 {
		return nil, lore.Errorf(lore.EINVALID, "limit must be positive, got %d", limit)
	}
	var out []lore.OutboxEntry
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT seq, tenant_id, user_id, agent_id, run_id, kind, memory_id, doc_ids, tag,
			attempts, next_at, last_error, created_at FROM outbox WHERE next_at <= ? AND (? = '' OR tenant_id = ?)
			ORDER BY seq LIMIT ?`, micros(now), tenantID, tenantID, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e lore.OutboxEntry
			var kind, docs string
			var next, created int64
			if err := rows.Scan(&e.Seq, &e.Scope.TenantID, &e.Scope.UserID, &e.Scope.AgentID, &e.Scope.RunID, &kind,
				&e.MemoryID, &docs, &e.Tag, &e.Attempts, &next, &e.LastError, &created); err != nil {
				return err
			}
			e.Kind, e.NextAt, e.CreatedAt = lore.DocKind(kind), fromMicros(next), fromMicros(created)
			if docs != "" {
				e.DocIDs = strings.Split(docs, "\n")
			}
			out = append(out, e)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		for i := range out {
			out[i].Attempts++
			out[i].NextAt = normTime(now.Add(lease))
			if _, err := tx.ExecContext(ctx, `UPDATE outbox SET attempts = ?, next_at = ? WHERE seq = ?`,
				out[i].Attempts, micros(out[i].NextAt), out[i].Seq); err != nil {
				return err
			}
		}
		return nil
	})
	return out, wrap("claim outbox", err)
}

// DoneOutbox implements lore.Outbox.
func (s *Store) DoneOutbox(ctx context.Context, seqs []int64) error {
	if len(seqs) == 0 {
		return nil
	}
	err := s.write(lore.WithoutFence(ctx), func(tx *sql.Tx) error {
		for _, seq := range seqs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE seq = ?`, seq); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap("done outbox", err)
}

// FailOutbox implements lore.Outbox.
func (s *Store) FailOutbox(ctx context.Context, seq int64, next time.Time, msg string) error {
	_, err := s.exec(lore.WithoutFence(ctx), `UPDATE outbox SET next_at = ?, last_error = ? WHERE seq = ?`, micros(next), msg, seq)
	return wrap("fail outbox", err)
}

// AckOutbox implements lore.Outbox.
func (s *Store) AckOutbox(ctx context.Context, tag string, memoryIDs []string) error {
	if tag == "" || len(memoryIDs) == 0 {
		return nil
	}
	// Usually the index write has deleted them in its own transaction
	// (lore.WithOutboxAck): then no write transaction, and no sync, is
	// spent.
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE tag = ?`, tag).Scan(&n); err != nil {
		return wrap("ack outbox", err)
	}
	if n == 0 {
		return nil
	}
	err := s.write(lore.WithoutFence(ctx), func(tx *sql.Tx) error { return ackOutbox(ctx, tx, tag, memoryIDs) })
	return wrap("ack outbox", err)
}

// ackOutbox deletes the entries of tag for memoryIDs in tx.
func ackOutbox(ctx context.Context, tx *sql.Tx, tag string, memoryIDs []string) error {
	for _, ids := range chunks(memoryIDs, 500) {
		args := append([]any{tag}, anys(ids)...)
		if _, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE tag = ? AND memory_id IN (`+placeholders(len(ids))+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}

// PendingOutbox implements lore.Outbox.
func (s *Store) PendingOutbox(ctx context.Context, tenantID string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE ? = '' OR tenant_id = ?`, tenantID, tenantID).Scan(&n)
	return n, wrap("pending outbox", err)
}

// Tenants implements lore.TenantLister.
func (s *Store) Tenants(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT tenant_id FROM episodes UNION SELECT tenant_id FROM facts ORDER BY 1`)
	if err != nil {
		return nil, wrap("tenants", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, wrap("tenants", err)
		}
		out = append(out, t)
	}
	return out, wrap("tenants", rows.Err())
}

// ListDocs implements lore.IndexLister, in id order; the cursor is the
// last id of the page before.
func (x *Index) ListDocs(ctx context.Context, scope lore.Scope, cursor string, limit int) ([]lore.IndexDoc, string, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, "", err
	}
	if limit <= 0 {
		return nil, "", lore.Errorf(lore.EINVALID, "limit must be positive, got %d", limit)
	}
	var w where
	w.scope("d.", scope)
	w.add("d.id > ?", cursor)
	rows, err := x.s.r.QueryContext(ctx, `SELECT d.id, d.kind, d.tenant_id, d.user_id, d.agent_id, d.run_id, d.text, d.time, v.vector
		FROM docs d LEFT JOIN doc_vectors v ON v.seq = d.seq WHERE `+w.sql()+` ORDER BY d.id LIMIT ?`, append(w.args, limit)...)
	if err != nil {
		return nil, "", wrap("list docs", err)
	}
	defer rows.Close()
	var out []lore.IndexDoc
	for rows.Next() {
		var d lore.IndexDoc
		var kind string
		var at int64
		var vec []byte
		if err := rows.Scan(&d.ID, &kind, &d.Scope.TenantID, &d.Scope.UserID, &d.Scope.AgentID, &d.Scope.RunID, &d.Text, &at, &vec); err != nil {
			return nil, "", wrap("list docs", err)
		}
		d.Kind, d.Time = lore.DocKind(kind), fromMicros(at)
		if vec != nil {
			d.Vector = decodeVector(vec)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, "", wrap("list docs", err)
	}
	next := ""
	if len(out) == limit {
		next = out[len(out)-1].ID
	}
	return out, next, nil
}

// nextEpisodes returns the ids of the episodes just after ep in its own
// scope and in its user's (or agent's) conversation: their index documents
// quote the turn before them, which a change or deletion of ep alters.
func nextEpisodes(ctx context.Context, tx *sql.Tx, ep *lore.Episode) ([]string, error) {
	var out []string
	for _, exact := range []bool{true, false} {
		var w where
		w.add("tenant_id = ?", ep.Scope.TenantID)
		w.add("user_id = ?", ep.Scope.UserID)
		if exact || ep.Scope.UserID == "" {
			w.add("agent_id = ?", ep.Scope.AgentID)
		}
		if exact {
			w.add("run_id = ?", ep.Scope.RunID)
		}
		w.add("(occurred_at, created_at, id) > (?, ?, ?)", micros(ep.OccurredAt), micros(ep.CreatedAt), ep.ID)
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM episodes WHERE `+w.sql()+` ORDER BY occurred_at, created_at, id LIMIT 1`, w.args...).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		} else if err != nil {
			return nil, err
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// episodeEntries are the outbox entries of a change to ep (documents before
// it: those of content) and of the turns after it.
func episodeEntries(ctx context.Context, tx *sql.Tx, ep *lore.Episode, content string) ([]lore.OutboxEntry, error) {
	next, err := nextEpisodes(ctx, tx, ep)
	if err != nil {
		return nil, err
	}
	out := []lore.OutboxEntry{episodeEntry(ep, content)}
	for _, id := range next {
		out = append(out, lore.OutboxEntry{Scope: ep.Scope, Kind: lore.KindEpisode, MemoryID: id})
	}
	return out, nil
}
