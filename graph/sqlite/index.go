package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"math"
	"strings"
	"unicode"

	"github.com/lore-memory/lore"
)

var _ lore.Index = (*Index)(nil)

// DefaultLimit is the number of hits a search returns when the query sets
// no Limit.
const DefaultLimit = 100

// maxQueryTerms bounds the terms of one text search; a pasted page of text
// would otherwise turn into a very wide OR.
const maxQueryTerms = 32

// Index is the search index over facts and episodes in the Store's
// database: BM25 for text with each user's (or agent's) own statistics (see
// Text search in bm25.go), exact cosine similarity over float32 vectors.
// Get it with Store.Index.
type Index struct {
	s      *Store
	closed bool // this view's reference is released
}

// Index returns the lore.Index over the Store's database. Each view holds
// the database open until its Close; the Store's Close does not end it.
func (s *Store) Index() *Index {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	s.refs++
	return &Index{s: s}
}

// Close releases this view. The database closes when the Store and every
// view are closed. Calling Close twice is safe.
func (x *Index) Close() error {
	return x.s.release(&x.closed)
}

// Upsert adds or replaces documents by ID in one transaction.
func (x *Index) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	for _, d := range docs {
		if err := d.Scope.Validate(); err != nil {
			return err
		}
		if d.ID == "" {
			return lore.Errorf(lore.EINVALID, "document id is required")
		}
		if d.Kind != lore.KindFact && d.Kind != lore.KindEpisode {
			return lore.Errorf(lore.EINVALID, "document kind %q is neither fact nor episode", d.Kind)
		}
	}
	if err := x.upsert(ctx, docs); err != nil {
		return err
	}
	// After indexMu is released: loading a large user's set must not hold
	// up other users' writes. The load follows the same protocol as one a
	// search starts (see vectorSet).
	x.s.warm(ctx, docs)
	return nil
}

// upsert writes docs and brings the loaded vector sets up to date, in
// commit order.
func (x *Index) upsert(ctx context.Context, docs []lore.IndexDoc) error {
	s := x.s
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	var old []docRef
	err := s.write(ctx, func(tx *sql.Tx) error {
		// The outbox entries the write completes go in its transaction.
		if tag, acked := lore.OutboxAck(ctx); tag != "" {
			if err := ackOutbox(ctx, tx, tag, acked); err != nil {
				return err
			}
		}
		var err error
		ids := make([]string, len(docs))
		for i, d := range docs {
			ids[i] = d.ID
		}
		if old, err = docRefs(ctx, tx, ids); err != nil {
			return err
		}
		// Each document as stored, updated as the batch goes: an id may
		// come twice.
		stored := make(map[string]docRef, len(old))
		for _, r := range old {
			stored[r.id] = r
		}
		// One parse per batch, not per document. scope_tokens is a relic
		// of the FTS5 index (see migration 4).
		upsert, err := tx.PrepareContext(ctx, `INSERT INTO docs (id, kind, tenant_id, user_id, agent_id, run_id, text, scope_tokens, time, tokens)
			VALUES (?, ?, ?, ?, ?, ?, ?, '', ?, ?)
			ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, tenant_id = excluded.tenant_id,
				user_id = excluded.user_id, agent_id = excluded.agent_id, run_id = excluded.run_id,
				text = excluded.text, time = excluded.time, tokens = excluded.tokens
			RETURNING seq`)
		if err != nil {
			return err
		}
		defer upsert.Close()
		setVec, err := tx.PrepareContext(ctx, `INSERT INTO doc_vectors (seq, vector) VALUES (?, ?)
			ON CONFLICT (seq) DO UPDATE SET vector = excluded.vector`)
		if err != nil {
			return err
		}
		defer setVec.Close()
		dropVec, err := tx.PrepareContext(ctx, `DELETE FROM doc_vectors WHERE seq = ?`)
		if err != nil {
			return err
		}
		defer dropVec.Close()
		p, err := newPoster(ctx, tx, s.postings)
		if err != nil {
			return err
		}
		defer p.close()
		for _, d := range docs {
			sc := d.Scope
			prev, had := stored[d.ID]
			// Rewriting a document with the same text in the same
			// partitions (a fact seen again) keeps its postings.
			keep := had && prev.tokens.Valid && prev.text == d.Text &&
				prev.tenant == sc.TenantID && prev.user == sc.UserID && prev.agent == sc.AgentID
			var c termCounts
			tokens := prev.tokens.Int64
			if !keep {
				if had && prev.tokens.Valid {
					if err := p.unpost(ctx, prev.seq, prev.tenant, prev.user, prev.agent, prev.tokens.Int64); err != nil {
						return err
					}
				}
				c = countTerms(d.Text)
				tokens = int64(c.tokens)
			}
			var seq int64
			err := upsert.QueryRowContext(ctx, d.ID, string(d.Kind), sc.TenantID, sc.UserID, sc.AgentID,
				sc.RunID, d.Text, micros(d.Time), tokens).Scan(&seq)
			if err != nil {
				return err
			}
			if !keep {
				p.post(seq, sc.TenantID, sc.UserID, sc.AgentID, c)
			}
			stored[d.ID] = docRef{seq: seq, id: d.ID, tenant: sc.TenantID, user: sc.UserID, agent: sc.AgentID,
				text: d.Text, tokens: sql.NullInt64{Int64: tokens, Valid: true}}
			if len(d.Vector) > 0 {
				_, err = setVec.ExecContext(ctx, seq, encodeVector(d.Vector))
			} else {
				_, err = dropVec.ExecContext(ctx, seq)
			}
			if err != nil {
				return err
			}
		}
		return p.finish(ctx, tx)
	})
	if err != nil {
		return wrap("index upsert", err)
	}
	// Committed: bring the loaded vector sets up to date, in commit order
	// (indexMu is still held).
	s.vectors.remove(old)
	s.vectors.add(docs)
	return nil
}

// Delete removes the documents with these ids that the scope contains.
func (x *Index) Delete(ctx context.Context, scope lore.Scope, ids []string) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	s := x.s
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	var gone []docRef
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, part := range chunks(ids, 500) {
			var w where
			w.in("id", part)
			w.scopeFilter("", scope)
			refs, err := deleteDocs(ctx, tx, w, s.postings)
			if err != nil {
				return err
			}
			gone = append(gone, refs...)
		}
		return nil
	})
	if err != nil {
		return wrap("index delete", err)
	}
	s.vectors.remove(gone)
	return nil
}

// DeleteScope removes every document the scope contains.
func (x *Index) DeleteScope(ctx context.Context, scope lore.Scope) error {
	if err := scope.ValidateErase(); err != nil {
		return err
	}
	s := x.s
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	var gone []docRef
	err := s.write(ctx, func(tx *sql.Tx) error {
		var w where
		w.scope("", scope)
		var err error
		gone, err = deleteDocs(ctx, tx, w, s.postings)
		return err
	})
	if err != nil {
		return wrap("index delete scope", err)
	}
	s.vectors.remove(gone)
	return s.scrub(ctx)
}

// filterDocs adds the kind and time conditions of q for the docs table
// aliased p.
func filterDocs(w *where, p string, q lore.IndexQuery) {
	if len(q.Kinds) > 0 {
		kinds := make([]string, len(q.Kinds))
		for i, k := range q.Kinds {
			kinds[i] = string(k)
		}
		w.in(p+"kind", kinds)
	}
	if q.Since != nil {
		w.add(p+"time >= ?", micros(*q.Since))
	}
	if q.Until != nil {
		w.add(p+"time < ?", micros(*q.Until))
	}
}

// docRef is where a document lived: enough to update the vector cache and
// the text index.
type docRef struct {
	seq                 int64
	id                  string
	tenant, user, agent string
	text                string        // only from docRefs
	tokens              sql.NullInt64 // the length in terms; NULL before backfill
}

// docRefs returns the stored documents with these ids.
func docRefs(ctx context.Context, tx *sql.Tx, ids []string) ([]docRef, error) {
	var out []docRef
	for _, part := range chunks(ids, 500) {
		rows, err := tx.QueryContext(ctx, `SELECT seq, id, tenant_id, user_id, agent_id, text, tokens FROM docs
			WHERE id IN (`+placeholders(len(part))+`)`, anys(part)...)
		if err != nil {
			return nil, err
		}
		refs, err := scanRefs(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, refs...)
	}
	return out, nil
}

// deleteDocs deletes the documents w selects, with their postings and
// vectors (ON DELETE CASCADE; term_stats follows by trigger), takes them
// out of their partitions' statistics and returns where they lived.
func deleteDocs(ctx context.Context, tx *sql.Tx, w where, cache *postingCache) ([]docRef, error) {
	// The text is not needed: '' keeps one scanner for both statements.
	rows, err := tx.QueryContext(ctx, `DELETE FROM docs WHERE `+w.sql()+`
		RETURNING seq, id, tenant_id, user_id, agent_id, '', tokens`, w.args...)
	if err != nil {
		return nil, err
	}
	refs, err := scanRefs(rows)
	if err != nil {
		return nil, err
	}
	stats := statsDelta{}
	for _, r := range refs {
		if r.tokens.Valid {
			stats.add(r.tenant, r.user, r.agent, r.tokens.Int64, -1)
		}
	}
	return refs, stats.write(ctx, tx, cache)
}

// scanRefs reads (seq, id, tenant_id, user_id, agent_id, text, tokens) rows
// and closes them.
func scanRefs(rows *sql.Rows) ([]docRef, error) {
	defer rows.Close()
	var out []docRef
	for rows.Next() {
		var r docRef
		if err := rows.Scan(&r.seq, &r.id, &r.tenant, &r.user, &r.agent, &r.text, &r.tokens); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// isStopword reports whether a query word is dropped from text queries: such
// words match most documents and add cost but nothing to BM25. A query made
// only of them keeps them.
func isStopword(w string) bool {
	switch w {
	case "a", "about", "an", "and", "are", "as", "at", "be", "but", "by", "did", "do", "does", "for", "from",
		"had", "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that",
		"the", "their", "them", "they", "this", "to", "was", "we", "were", "what", "when", "where", "which",
		"who", "will", "with", "you", "your":
		return true
	}
	return false
}

// matchTerms splits user text into lower-case words (runs of letters,
// digits and marks), drops stopwords unless nothing else is left, removes
// duplicates and keeps at most maxQueryTerms.
func matchTerms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
	var kept, stop []string
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		if isStopword(w) {
			stop = append(stop, w)
		} else {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		kept = stop
	}
	if len(kept) > maxQueryTerms {
		kept = kept[:maxQueryTerms]
	}
	return kept
}

// encodeVector stores a vector as little-endian float32s, or NULL.
func encodeVector(v []float32) any {
	if len(v) == 0 {
		return nil
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// decodeVector reads a vector stored by encodeVector.
func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
