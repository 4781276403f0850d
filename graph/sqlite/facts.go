package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// factColumns lists the columns queryFacts reads, in order.
const factColumns = `id, tenant_id, user_id, agent_id, run_id, subject_id, subject, predicate, object_id, object,
	text, confidence, valid_at, invalid_at, created_at, updated_at, expired_at, count, first_seen, last_seen,
	extractor, metadata`

// factRead is what queryFacts reads: factColumns and the fact's expiry
// from expirations (NULL for none).
const factRead = factColumns + `, (SELECT expires_at FROM expirations x WHERE x.id = facts.id)`

// currentSQL selects facts neither invalidated nor expired at the bound time
// (bound twice).
const currentSQL = `(invalid_at IS NULL OR invalid_at > ?) AND (expired_at IS NULL OR expired_at > ?)`

// duplicateSQL finds the current fact a MergeFact merges into, by
// subject, predicate, object key and namespace (the arguments, in order,
// then now twice).
const duplicateSQL = `SELECT id, text FROM facts
	WHERE subject_id = ? AND predicate = ? AND object_key = ?
	AND tenant_id = ? AND user_id = ? AND agent_id = ? AND ` + currentSQL + `
	ORDER BY last_seen DESC, id LIMIT 1`

// twinSQL finds a current fact other than the one being changed (the last
// argument) that states the same triple, with duplicateSQL's arguments.
const twinSQL = `SELECT id, text FROM facts
	WHERE subject_id = ? AND predicate = ? AND object_key = ?
	AND tenant_id = ? AND user_id = ? AND agent_id = ? AND ` + currentSQL + ` AND id <> ?
	LIMIT 1`

// MergeFact adds f, or merges it into the current fact of the namespace
// with the same subject, predicate and object key, and records ADD or MERGE
// history in the same transaction. A fact given already closed is always
// added.
func (s *Store) MergeFact(ctx context.Context, f *lore.Fact, actor string) (*lore.Fact, lore.EventKind, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, "", err
	}
	if f.SubjectID == "" {
		return nil, "", lore.Errorf(lore.EINVALID, "subject_id is required")
	}
	pred, err := lore.NormalizePredicate(f.Predicate)
	if err != nil {
		return nil, "", err
	}
	if f.ObjectID == "" && lore.NormalizeName(f.Object) == "" {
		return nil, "", lore.Errorf(lore.EINVALID, "object is required")
	}
	now := s.clock()
	first, last := seenRange(f.FirstSeen, f.LastSeen, now)
	ns := f.Scope.Namespace()
	key := f.ObjectKey()
	count := max(f.Count, 1)

	var (
		out   *lore.Fact
		event lore.EventKind
	)
	err = s.write(ctx, func(tx *sql.Tx) error {
		// Both ends must be entities of the fact's namespace, so that no
		// edge ever links two users' graphs.
		for _, end := range []struct{ field, id string }{{"subject_id", f.SubjectID}, {"object_id", f.ObjectID}} {
			if end.id == "" {
				continue
			}
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM entities WHERE id = ? AND tenant_id = ? AND user_id = ? AND agent_id = ?`,
				end.id, ns.TenantID, ns.UserID, ns.AgentID).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return lore.Errorf(lore.EINVALID, "%s %q is not an entity of this scope", end.field, end.id)
			} else if err != nil {
				return err
			}
		}
		var id, text string
		err := sql.ErrNoRows
		if f.Current(now) {
			// A fact given already closed is history: it never merges
			// into a current twin, which would lose its ending.
			err = tx.QueryRowContext(ctx, duplicateSQL, f.SubjectID, pred, key, ns.TenantID, ns.UserID, ns.AgentID, micros(now), micros(now)).Scan(&id, &text)
		}
		switch {
		case errors.Is(err, sql.ErrNoRows):
			id, event = newID(), lore.EventAdd
			meta, err := encodeJSON(f.Metadata)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO facts (`+factColumns+`, object_key)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, f.Scope.TenantID, f.Scope.UserID, f.Scope.AgentID, f.Scope.RunID, f.SubjectID, f.Subject, pred,
				f.ObjectID, f.Object, f.Text, f.Confidence, microsPtr(f.ValidAt), microsPtr(f.InvalidAt),
				micros(now), micros(now), microsPtr(f.ExpiredAt), count, micros(first), micros(last),
				f.Extractor, meta, key)
			if err != nil {
				return err
			}
			if err := setExpiry(ctx, tx, id, lore.KindFact, f.Scope, f.ExpiresAt); err != nil {
				return err
			}
			text = f.Text
		case err != nil:
			return err
		default:
			event = lore.EventMerge
			_, err = tx.ExecContext(ctx, `UPDATE facts SET count = count + ?, first_seen = min(first_seen, ?),
				last_seen = max(last_seen, ?), confidence = max(confidence, ?), updated_at = ?,
				valid_at = coalesce(valid_at, ?) WHERE id = ?`,
				count, micros(first), micros(last), f.Confidence, micros(now), microsPtr(f.ValidAt), id)
			if err != nil {
				return err
			}
			if err := mergeExpiry(ctx, tx, id, f.ExpiresAt); err != nil {
				return err
			}
		}
		for _, ep := range f.SourceEpisodeIDs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO fact_sources (fact_id, episode_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, ep); err != nil {
				return err
			}
		}
		ev := lore.HistoryEvent{MemoryID: id, Scope: f.Scope, Event: event, After: text, Actor: actor, At: now}
		if event == lore.EventMerge {
			ev.Before = text
			ev.Reason = fmt.Sprintf("stated again (+%d)", count)
		}
		if err := addHistory(ctx, tx, ev); err != nil {
			return err
		}
		got, err := getFact(ctx, tx, lore.Scope{TenantID: f.Scope.TenantID, UserID: ns.UserID, AgentID: ns.AgentID}, id)
		if err != nil {
			return err
		}
		out = got
		return s.outbox(ctx, tx, lore.OutboxEntry{Scope: got.Scope, Kind: lore.KindFact, MemoryID: got.ID})
	})
	if err != nil {
		return nil, "", wrap("merge fact", err)
	}
	return out, event, nil
}

// FindFacts returns the facts the filter selects, by LastSeen descending,
// then ID.
func (s *Store) FindFacts(ctx context.Context, f lore.FactFilter) ([]*lore.Fact, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, err
	}
	q, args := factQuery(f, s.clock())
	facts, err := queryFacts(ctx, s.reads, q, args...)
	return facts, wrap("find facts", err)
}

// factQuery returns FindFacts' statement and arguments as of now.
func factQuery(f lore.FactFilter, now time.Time) (string, []any) {
	var w where
	if f.IDs != nil || f.SubjectID != "" || f.ObjectID != "" || f.EntityID != "" {
		w.scopeFilter("", f.Scope)
	} else {
		w.scope("", f.Scope)
	}
	if f.IDs != nil {
		w.in("id", f.IDs)
	}
	if f.SubjectID != "" {
		w.add("subject_id = ?", f.SubjectID)
	}
	if f.ObjectID != "" {
		w.add("object_id = ?", f.ObjectID)
	}
	if f.EntityID != "" {
		w.add("(subject_id = ? OR object_id = ?)", f.EntityID, f.EntityID)
	}
	if f.Predicate != "" {
		w.add("predicate = ?", f.Predicate)
	}
	if !f.IncludeInvalidated {
		w.add(currentSQL, micros(now), micros(now))
	}
	if f.Since != nil {
		w.add("last_seen >= ?", micros(*f.Since))
	}
	if f.Until != nil {
		w.add("first_seen < ?", micros(*f.Until))
	}
	w.live("facts", now)
	return `SELECT ` + factRead + ` FROM facts WHERE ` + w.sql() +
		` ORDER BY last_seen DESC, id` + limitOffset(f.Limit, f.Offset), w.args
}

// UpdateFact changes a fact and records one history event of kind
// upd.Event (UPDATE when empty) with the text before and after.
func (s *Store) UpdateFact(ctx context.Context, scope lore.Scope, id string, upd lore.FactUpdate) (*lore.Fact, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	event := upd.Event
	switch event {
	case "":
		event = lore.EventUpdate
	case lore.EventUpdate, lore.EventInvalidate, lore.EventMerge:
	default:
		return nil, lore.Errorf(lore.EINVALID, "event %q is not an update of a fact", upd.Event)
	}
	if upd.Confidence != nil && (*upd.Confidence < 0 || *upd.Confidence > 1) {
		return nil, lore.Errorf(lore.EINVALID, "confidence %v is outside 0..1", *upd.Confidence)
	}
	if upd.Triple != nil {
		if err := checkTriple(upd.Triple); err != nil {
			return nil, err
		}
	}
	var out *lore.Fact
	err := s.write(ctx, func(tx *sql.Tx) error {
		f, err := getFact(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		before := f.Text
		if upd.Triple != nil {
			if err := s.retriple(ctx, tx, f, *upd.Triple); err != nil {
				return err
			}
		}
		if upd.Text != nil {
			f.Text = *upd.Text
		}
		if upd.Confidence != nil {
			f.Confidence = *upd.Confidence
		}
		if upd.InvalidAt != nil {
			f.InvalidAt = normTimePtr(upd.InvalidAt)
		}
		if upd.ExpiredAt != nil {
			f.ExpiredAt = normTimePtr(upd.ExpiredAt)
		}
		if upd.Metadata != nil {
			f.Metadata = upd.Metadata
		}
		f.UpdatedAt = s.clock()
		meta, err := encodeJSON(f.Metadata)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE facts SET text = ?, confidence = ?, invalid_at = ?, expired_at = ?,
			metadata = ?, updated_at = ? WHERE id = ?`,
			f.Text, f.Confidence, microsPtr(f.InvalidAt), microsPtr(f.ExpiredAt), meta, micros(f.UpdatedAt), f.ID); err != nil {
			return err
		}
		var added []string
		for _, ep := range upd.AddSources {
			if ep == "" || slices.Contains(f.SourceEpisodeIDs, ep) || slices.Contains(added, ep) {
				continue
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO fact_sources (fact_id, episode_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, f.ID, ep); err != nil {
				return err
			}
			added = append(added, ep)
		}
		f.SourceEpisodeIDs = append(f.SourceEpisodeIDs, added...)
		out = f
		entries := factEntries(f)
		if f.Text == before {
			// The episodes' documents quote the sentence: only a new
			// source's changes.
			entries = entries[:1]
			for _, ep := range added {
				entries = append(entries, lore.OutboxEntry{Scope: f.Scope, Kind: lore.KindEpisode, MemoryID: ep})
			}
		}
		if err := s.outbox(ctx, tx, entries...); err != nil {
			return err
		}
		return addHistory(ctx, tx, lore.HistoryEvent{MemoryID: f.ID, Scope: f.Scope, Event: event,
			Before: before, After: f.Text, Actor: upd.Actor, Reason: upd.Reason, At: f.UpdatedAt})
	})
	return out, wrap("update fact", err)
}

// checkTriple refuses a triple that cannot be stored.
func checkTriple(t *lore.Triple) error {
	if t.SubjectID == "" {
		return lore.Errorf(lore.EINVALID, "subject_id is required")
	}
	if _, err := lore.NormalizePredicate(t.Predicate); err != nil {
		return err
	}
	if t.ObjectID == "" && lore.NormalizeName(t.Object) == "" {
		return lore.Errorf(lore.EINVALID, "object is required")
	}
	return nil
}

// retriple sets f to state t within tx: both ends must be entities of f's
// namespace, and no other current fact may state t already. Names left
// empty are the entities' own.
func (s *Store) retriple(ctx context.Context, tx *sql.Tx, f *lore.Fact, t lore.Triple) error {
	ns := f.Scope.Namespace()
	name := func(field, id string) (string, error) {
		var n string
		err := tx.QueryRowContext(ctx, `SELECT name FROM entities WHERE id = ? AND tenant_id = ? AND user_id = ? AND agent_id = ?`,
			id, ns.TenantID, ns.UserID, ns.AgentID).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return "", lore.Errorf(lore.EINVALID, "%s %q is not an entity of this scope", field, id)
		}
		return n, err
	}
	subj, err := name("subject_id", t.SubjectID)
	if err != nil {
		return err
	}
	if t.Subject == "" {
		t.Subject = subj
	}
	if t.ObjectID != "" {
		obj, err := name("object_id", t.ObjectID)
		if err != nil {
			return err
		}
		if t.Object == "" {
			t.Object = obj
		}
	}
	pred, _ := lore.NormalizePredicate(t.Predicate)
	next := lore.Fact{ObjectID: t.ObjectID, Object: strings.TrimSpace(t.Object)}
	key := next.ObjectKey()
	now := s.clock()
	if f.Current(now) {
		var twin, text string
		err := tx.QueryRowContext(ctx, twinSQL, t.SubjectID, pred, key, ns.TenantID, ns.UserID, ns.AgentID, micros(now), micros(now), f.ID).Scan(&twin, &text)
		switch {
		case err == nil:
			return lore.Errorf(lore.ECONFLICT, "fact %s already states this (%q); change or delete one of them", twin, text)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
	}
	f.SubjectID, f.Subject, f.Predicate, f.ObjectID, f.Object = t.SubjectID, t.Subject, pred, next.ObjectID, next.Object
	_, err = tx.ExecContext(ctx, `UPDATE facts SET subject_id = ?, subject = ?, predicate = ?, object_id = ?, object = ?,
		object_key = ? WHERE id = ?`, f.SubjectID, f.Subject, f.Predicate, f.ObjectID, f.Object, key, f.ID)
	return err
}

// DeleteFact removes a fact, with its ranking signals, and records a DELETE
// event; its history stays.
func (s *Store) DeleteFact(ctx context.Context, scope lore.Scope, id string, actor string) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		f, err := getFact(ctx, tx, scope, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM facts WHERE id = ?`, f.ID); err != nil {
			return err
		}
		if err := deleteMemorySignals(ctx, tx, f.Scope.TenantID, f.ID); err != nil {
			return err
		}
		if err := setExpiry(ctx, tx, f.ID, "", f.Scope, nil); err != nil {
			return err
		}
		if err := s.outbox(ctx, tx, factEntries(f)...); err != nil {
			return err
		}
		return addHistory(ctx, tx, lore.HistoryEvent{MemoryID: f.ID, Scope: f.Scope, Event: lore.EventDelete,
			Before: f.Text, Actor: actor, At: s.clock()})
	})
	return wrap("delete fact", err)
}

// getFact reads one fact the scope contains, or returns ENOTFOUND.
func getFact(ctx context.Context, q querier, scope lore.Scope, id string) (*lore.Fact, error) {
	var w where
	w.add("id = ?", id)
	w.scopeFilter("", scope)
	facts, err := queryFacts(ctx, q, `SELECT `+factRead+` FROM facts WHERE `+w.sql(), w.args...)
	if err != nil {
		return nil, err
	}
	if len(facts) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "fact %q not found", id)
	}
	return facts[0], nil
}

// queryFacts runs a query selecting factRead and loads the sources of
// what it found.
func queryFacts(ctx context.Context, q querier, query string, args ...any) ([]*lore.Fact, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	out := []*lore.Fact{}
	byID := map[string]*lore.Fact{}
	for rows.Next() {
		f, err := scanFact(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, f)
		byID[f.ID] = f
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, loadSources(ctx, q, out, byID)
}

// scanFact reads one row of factRead.
func scanFact(rows *sql.Rows) (*lore.Fact, error) {
	var (
		f                             lore.Fact
		valid, invalid, expired       sql.NullInt64
		created, updated, first, last int64
		meta                          sql.NullString
		expires                       sql.NullInt64
	)
	if err := rows.Scan(&f.ID, &f.Scope.TenantID, &f.Scope.UserID, &f.Scope.AgentID, &f.Scope.RunID,
		&f.SubjectID, &f.Subject, &f.Predicate, &f.ObjectID, &f.Object, &f.Text, &f.Confidence,
		&valid, &invalid, &created, &updated, &expired, &f.Count, &first, &last, &f.Extractor, &meta, &expires); err != nil {
		return nil, err
	}
	f.ExpiresAt = fromNullMicros(expires)
	f.ValidAt, f.InvalidAt, f.ExpiredAt = fromNullMicros(valid), fromNullMicros(invalid), fromNullMicros(expired)
	f.CreatedAt, f.UpdatedAt, f.FirstSeen, f.LastSeen = fromMicros(created), fromMicros(updated), fromMicros(first), fromMicros(last)
	var err error
	if f.Metadata, err = decodeJSON(meta); err != nil {
		return nil, fmt.Errorf("fact %s metadata: %w", f.ID, err)
	}
	f.SourceEpisodeIDs = []string{}
	return &f, nil
}

// loadSources fills SourceEpisodeIDs, in the order the sources were added.
func loadSources(ctx context.Context, q querier, facts []*lore.Fact, byID map[string]*lore.Fact) error {
	ids := make([]string, 0, len(facts))
	for _, f := range facts {
		ids = append(ids, f.ID)
	}
	for _, part := range chunks(ids, 500) {
		rows, err := q.QueryContext(ctx, `SELECT fact_id, episode_id FROM fact_sources WHERE fact_id IN (`+
			placeholders(len(part))+`) ORDER BY rowid`, anys(part)...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var fid, ep string
			if err := rows.Scan(&fid, &ep); err != nil {
				rows.Close()
				return err
			}
			byID[fid].SourceEpisodeIDs = append(byID[fid].SourceEpisodeIDs, ep)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// maxHops bounds a neighbourhood walk; the port asks for 1 or 2.
const maxHops = 3

// Neighborhood walks breadth first from the seeds over the facts the scope
// contains, one query per hop and each fact once, at its nearest hop.
// Within a hop, facts come by LastSeen descending, then ID.
func (s *Store) Neighborhood(ctx context.Context, q lore.NeighborhoodQuery) ([]lore.GraphHit, error) {
	if err := q.Scope.Validate(); err != nil {
		return nil, err
	}
	hops := min(max(q.MaxHops, 1), maxHops)
	seedOf := map[string]string{} // entity id → the seed it was reached from
	var frontier []string
	for _, id := range q.SeedIDs {
		if _, ok := seedOf[id]; !ok && id != "" {
			seedOf[id] = id
			frontier = append(frontier, id)
		}
	}
	now := s.clock()
	seen := map[string]bool{}
	hits := []lore.GraphHit{}
	for hop := 1; hop <= hops && len(frontier) > 0; hop++ {
		// The hop's query returns at most Limit rows: the facts already
		// seen that it meets again are fewer than the hits so far, so
		// Limit rows always hold the Limit - len(hits) new ones needed.
		facts, err := s.touching(ctx, q.Scope, frontier, q.IncludeInvalidated, now, q.Limit)
		if err != nil {
			return nil, wrap("neighborhood", err)
		}
		var next []string
		for _, f := range facts {
			if seen[f.ID] {
				continue
			}
			seen[f.ID] = true
			seed, ok := seedOf[f.SubjectID]
			if !ok {
				seed = seedOf[f.ObjectID]
			}
			hits = append(hits, lore.GraphHit{Fact: f, Hops: hop, SeedID: seed})
			if q.Limit > 0 && len(hits) == q.Limit {
				return hits, nil
			}
			for _, end := range []string{f.SubjectID, f.ObjectID} {
				if _, ok := seedOf[end]; !ok && end != "" {
					seedOf[end] = seed
					next = append(next, end)
				}
			}
		}
		frontier = next
	}
	return hits, nil
}

// touching returns the facts the scope contains with either end among ids,
// by LastSeen descending, then ID; the first limit of them when limit > 0.
func (s *Store) touching(ctx context.Context, scope lore.Scope, ids []string, invalidated bool, now time.Time, limit int) ([]*lore.Fact, error) {
	var out []*lore.Fact
	for _, part := range chunks(ids, 400) {
		q, args := touchingQuery(scope, part, invalidated, now, limit)
		facts, err := queryFacts(ctx, s.reads, q, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, facts...)
	}
	if len(ids) > 400 {
		// Chunks were each ordered; restore one order across them.
		sortFacts(out)
	}
	return out, nil
}

// touchingQuery returns the statement selecting the facts the scope
// contains with either end among ids: two index lookups joined with UNION
// rather than one OR, so that SQLite uses facts_subject and facts_object.
func touchingQuery(scope lore.Scope, ids []string, invalidated bool, now time.Time, limit int) (string, []any) {
	var w where
	w.scopeFilter("", scope)
	if !invalidated {
		w.add(currentSQL, micros(now), micros(now))
	}
	w.live("facts", now)
	cond := w.sql()
	args := append(anys(ids), w.args...)
	args = append(args, anys(ids)...)
	args = append(args, w.args...)
	return `SELECT ` + factRead + ` FROM facts WHERE subject_id IN (` + placeholders(len(ids)) + `) AND ` + cond + `
		UNION
		SELECT ` + factRead + ` FROM facts WHERE object_id IN (` + placeholders(len(ids)) + `) AND ` + cond + `
		ORDER BY last_seen DESC, id` + limitOffset(limit, 0), args
}

// DeleteScope removes every episode, entity, fact, job and history event
// the scope contains (a scope naming a tenant alone: the whole tenant), in
// one transaction that also records the erasure, so
// fenced writes of jobs already running are refused from then on (see
// EraseStore). Entities go with the namespaces the scope contains; a scope
// naming a run removes no entities. Then it checkpoints the WAL away (see
// scrub): no copy of the erased text stays in the files.
func (s *Store) DeleteScope(ctx context.Context, scope lore.Scope) (lore.DeleteStats, error) {
	if err := scope.ValidateErase(); err != nil {
		return lore.DeleteStats{}, err
	}
	var stats lore.DeleteStats
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := recordErasure(ctx, tx, scope, s.clock()); err != nil {
			return err
		}
		// The index documents go too, by the erase itself or, if that
		// fails, by the outbox worker.
		if err := s.outbox(ctx, tx, lore.OutboxEntry{Scope: scope, Kind: lore.KindScope}); err != nil {
			return err
		}
		del := func(table string, namespaced bool) (int, error) {
			var w where
			if namespaced {
				if scope.RunID != "" {
					return 0, nil
				}
				w.namespace("", scope)
			} else {
				w.scope("", scope)
			}
			res, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+w.sql(), w.args...)
			if err != nil {
				return 0, fmt.Errorf("delete %s: %w", table, err)
			}
			n, err := res.RowsAffected()
			return int(n), err
		}
		var err error
		if stats.Facts, err = del("facts", false); err != nil {
			return err
		}
		if stats.Episodes, err = del("episodes", false); err != nil {
			return err
		}
		if stats.Entities, err = del("entities", true); err != nil {
			return err
		}
		if stats.Jobs, err = del("jobs", false); err != nil {
			return err
		}
		if _, err = del("expirations", false); err != nil {
			return err
		}
		// The audit log keeps its records; only whom a pseudonym stands for goes.
		if _, err = del("audit_pseudonyms", true); err != nil {
			return err
		}
		if _, err = del("history", false); err != nil {
			return err
		}
		if err := deleteScopeProfile(ctx, tx, scope); err != nil {
			return err
		}
		if err := deleteScopeQueryLog(ctx, tx, scope); err != nil { // querylog.go
			return err
		}
		_, err = deleteFeedback(ctx, tx, scope, true) // feedback.go
		return err
	})
	if err != nil {
		return lore.DeleteStats{}, wrap("delete scope", err)
	}
	return stats, s.scrub(ctx)
}

// sortFacts orders facts by LastSeen descending, then ID.
func sortFacts(facts []*lore.Fact) {
	slices.SortFunc(facts, func(a, b *lore.Fact) int {
		if c := b.LastSeen.Compare(a.LastSeen); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}
