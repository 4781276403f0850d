package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"hash/fnv"
	"math"
	"strconv"
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
// database: FTS5 with BM25 for text, exact cosine similarity over float32
// vectors. Get it with Store.Index.
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
	s := x.s
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	var old []docRef
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		ids := make([]string, len(docs))
		for i, d := range docs {
			ids[i] = d.ID
		}
		if old, err = docRefs(ctx, tx, ids); err != nil {
			return err
		}
		// One parse per batch, not per document.
		upsert, err := tx.PrepareContext(ctx, `INSERT INTO docs (id, kind, tenant_id, user_id, agent_id, run_id, text, scope_tokens, time)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, tenant_id = excluded.tenant_id,
				user_id = excluded.user_id, agent_id = excluded.agent_id, run_id = excluded.run_id,
				text = excluded.text, scope_tokens = excluded.scope_tokens, time = excluded.time
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
		for _, d := range docs {
			var seq int64
			err := upsert.QueryRowContext(ctx, d.ID, string(d.Kind), d.Scope.TenantID, d.Scope.UserID, d.Scope.AgentID,
				d.Scope.RunID, d.Text, strings.Join(docTokens(d.Scope, d.Kind), " "), micros(d.Time)).Scan(&seq)
			if err != nil {
				return err
			}
			if len(d.Vector) > 0 {
				_, err = setVec.ExecContext(ctx, seq, encodeVector(d.Vector))
			} else {
				_, err = dropVec.ExecContext(ctx, seq)
			}
			if err != nil {
				return err
			}
		}
		return nil
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
			refs, err := deleteDocs(ctx, tx, w)
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
	if err := scope.Validate(); err != nil {
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
		gone, err = deleteDocs(ctx, tx, w)
		return err
	})
	if err != nil {
		return wrap("index delete scope", err)
	}
	s.vectors.remove(gone)
	return nil
}

// SearchText ranks the scope's documents by BM25 over their text. User text
// becomes an OR of quoted terms (see matchTerms), so no input can produce
// an FTS5 syntax error; text without any word finds nothing.
func (x *Index) SearchText(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	if err := q.Scope.Validate(); err != nil {
		return nil, err
	}
	terms := matchTerms(q.Text)
	if len(terms) == 0 {
		return []lore.IndexHit{}, nil
	}
	// The tokens restrict the match to the scope and kinds inside FTS5
	// (weight 0, so they do not change the ranking). The exact columns are
	// checked as well, so correctness never rests on the tokens' hash.
	match := "scope_tokens : (" + readTokens(q) + ") AND text : (" + quoteAll(terms, " OR ") + ")"
	var w where
	w.scope("d.", q.Scope)
	filterDocs(&w, "d.", q)
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	var query string
	args := []any{match}
	if q.Since == nil && q.Until == nil {
		// Everything is filtered inside FTS5: rank there and join only the
		// top hits.
		query = `SELECT d.id, d.kind, f.score FROM
			(SELECT rowid, bm25(docs_fts, 1.0, 0.0) AS score FROM docs_fts WHERE docs_fts MATCH ?
			 ORDER BY score, rowid LIMIT ` + strconv.Itoa(limit) + `) AS f
			JOIN docs d ON d.seq = f.rowid
			WHERE ` + w.sql() + ` ORDER BY f.score, d.id`
	} else {
		// A time range is checked on docs, for every match.
		query = `SELECT d.id, d.kind, bm25(docs_fts, 1.0, 0.0) AS score
			FROM docs_fts JOIN docs d ON d.seq = docs_fts.rowid
			WHERE docs_fts MATCH ? AND ` + w.sql() + ` ORDER BY score, d.id LIMIT ` + strconv.Itoa(limit)
	}
	rows, err := x.s.r.QueryContext(ctx, query, append(args, w.args...)...)
	if err != nil {
		return nil, wrap("search text", err)
	}
	defer rows.Close()
	hits := []lore.IndexHit{}
	for rows.Next() {
		var (
			h     lore.IndexHit
			kind  string
			score float64
		)
		if err := rows.Scan(&h.ID, &kind, &score); err != nil {
			return nil, wrap("search text", err)
		}
		// FTS5's bm25() is lower-is-better; the port wants higher-is-better.
		h.Kind, h.Score = lore.DocKind(kind), -score
		hits = append(hits, h)
	}
	return hits, wrap("search text", rows.Err())
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

// docRef is where a document lived: enough to update the vector cache.
type docRef struct {
	id                  string
	tenant, user, agent string
}

// docRefs returns the stored scopes of the documents with these ids.
func docRefs(ctx context.Context, tx *sql.Tx, ids []string) ([]docRef, error) {
	var out []docRef
	for _, part := range chunks(ids, 500) {
		rows, err := tx.QueryContext(ctx, `SELECT id, tenant_id, user_id, agent_id FROM docs WHERE id IN (`+placeholders(len(part))+`)`, anys(part)...)
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

// deleteDocs deletes the documents w selects and returns where they lived.
func deleteDocs(ctx context.Context, tx *sql.Tx, w where) ([]docRef, error) {
	rows, err := tx.QueryContext(ctx, `DELETE FROM docs WHERE `+w.sql()+` RETURNING id, tenant_id, user_id, agent_id`, w.args...)
	if err != nil {
		return nil, err
	}
	return scanRefs(rows)
}

// scanRefs reads (id, tenant_id, user_id, agent_id) rows and closes them.
func scanRefs(rows *sql.Rows) ([]docRef, error) {
	defer rows.Close()
	var out []docRef
	for rows.Next() {
		var r docRef
		if err := rows.Scan(&r.id, &r.tenant, &r.user, &r.agent); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// docTokens returns the tokens a document is indexed under: its
// (tenant, user), (tenant, agent) and (tenant, run) where set, and its kind.
func docTokens(sc lore.Scope, kind lore.DocKind) []string {
	var out []string
	if sc.UserID != "" {
		out = append(out, scopeToken('u', sc.TenantID, sc.UserID))
	}
	if sc.AgentID != "" {
		out = append(out, scopeToken('a', sc.TenantID, sc.AgentID))
	}
	if sc.RunID != "" {
		out = append(out, scopeToken('r', sc.TenantID, sc.RunID))
	}
	return append(out, scopeToken('k', "", string(kind)))
}

// readTokens returns the FTS5 expression over scope_tokens that every
// document a query may find satisfies: the tokens of the fields its scope
// sets (Validate guarantees a user or an agent), and one of its kinds.
func readTokens(q lore.IndexQuery) string {
	var must []string
	if q.Scope.UserID != "" {
		must = append(must, scopeToken('u', q.Scope.TenantID, q.Scope.UserID))
	}
	if q.Scope.AgentID != "" {
		must = append(must, scopeToken('a', q.Scope.TenantID, q.Scope.AgentID))
	}
	if q.Scope.RunID != "" {
		must = append(must, scopeToken('r', q.Scope.TenantID, q.Scope.RunID))
	}
	expr := quoteAll(must, " AND ")
	if len(q.Kinds) > 0 {
		kinds := make([]string, len(q.Kinds))
		for i, k := range q.Kinds {
			kinds[i] = scopeToken('k', "", string(k))
		}
		expr += " AND (" + quoteAll(kinds, " OR ") + ")"
	}
	return expr
}

// scopeToken hashes a tenant and an id into a token that the porter and
// unicode61 tokenizers keep intact: letters then digits, ending in a digit,
// so that no suffix rule applies.
func scopeToken(kind byte, tenant, id string) string {
	h := fnv.New64a()
	h.Write([]byte(tenant))
	h.Write([]byte{0})
	h.Write([]byte(id))
	return "s" + string(kind) + strconv.FormatUint(h.Sum64(), 10)
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

// quoteAll joins terms as FTS5 strings. A term holds only letters, digits
// and marks (or a scope token), but quotes are doubled all the same, so
// the expression is well formed whatever the term.
func quoteAll(terms []string, sep string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(quoted, sep)
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
