package sqlite

import (
	"cmp"
	"container/heap"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
)

// Text search.
//
// SearchText ranks with BM25 computed by Lore, not by FTS5: FTS5 keeps one
// set of statistics for the whole file, so one user's ranking would move
// with what other tenants and users store. Here the statistics (document
// count, average length in terms, each term's document frequency) are those
// of one partition: a user's documents, (tenant, user), or an agent's,
// (tenant, agent), the same sets the vector cache keys by (vecKey). A
// document is posted under each partition it has; a query reads the user's
// partition when its scope sets a user, else the agent's. Its other
// conditions (agent, run, kinds, time) filter the ranked candidates,
// checked on the docs table's columns.
//
// doc_terms holds the postings, (part, term, seq) → (tf, document length),
// and part_stats each partition's document count and total length; every
// write keeps both in step in its own transaction. term_stats holds each
// term's document frequency per partition, kept equal to its number of
// postings by triggers (migration 6), so that a search need not count a
// common term's postings. Terms are those of package terms: the terms
// FTS5's "porter unicode61 remove_diacritics 2" tokenizer made, so stemmed
// and folded matching is unchanged.

// BM25 parameters and the IDF floor of FTS5's bm25(), so that scores stay
// comparable with the FTS5 ranking this replaced: a term in more than about
// half of the partition's documents has a non-positive IDF and counts with
// minIDF instead.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	minIDF = 1e-6
)

// backfillBatch is the number of documents Open posts per write transaction
// when a file comes from before migration 4.
const backfillBatch = 500

// checkBatch bounds the candidates one statement checks against docs (and
// so its variables).
const checkBatch = 500

// Statements of the text index that TestQueryPlansUseIndexes checks.
const (
	// postingsSQL reads a term's postings in a partition.
	postingsSQL = `SELECT seq, tf, len FROM doc_terms WHERE part = ? AND term = ? ORDER BY seq`
	// unpostSQL removes a document's postings.
	unpostSQL = `DELETE FROM doc_terms WHERE seq = ?`
	// unpostedSQL reads the next documents the backfill posts.
	unpostedSQL = `SELECT seq, tenant_id, user_id, agent_id, text FROM docs WHERE tokens IS NULL ORDER BY seq LIMIT ?`
)

// postingsInSQL reads a term's postings in a partition for n documents.
func postingsInSQL(n int) string {
	return `SELECT seq, tf, len FROM doc_terms WHERE part = ? AND term = ? AND seq IN (` + placeholders(n) + `) ORDER BY seq`
}

// docFreqsSQL reads the document frequencies of n terms in a partition.
func docFreqsSQL(n int) string {
	return `SELECT term, df FROM term_stats WHERE part = ? AND term IN (` + placeholders(n) + `)`
}

// part returns the key of k's partition in doc_terms and part_stats: a
// 64-bit hash of (kind, tenant, id). A collision would only merge two
// partitions' statistics; what a search returns is checked on docs.
func (k vecKey) part() int64 {
	kind, id := byte('u'), k.user
	if k.user == "" {
		kind, id = 'a', k.agent
	}
	h := fnv.New64a()
	h.Write([]byte{kind})
	h.Write([]byte(k.tenant))
	h.Write([]byte{0})
	h.Write([]byte(id))
	return int64(h.Sum64())
}

// termCounts is a document's analysis: the count of each distinct term and
// the document's length in terms.
type termCounts struct {
	tf     map[string]int
	tokens int
}

// countTerms analyzes a document's text.
func countTerms(text string) termCounts {
	all := terms.Analyze(text)
	tf := make(map[string]int, len(all))
	for _, t := range all {
		tf[t]++
	}
	return termCounts{tf: tf, tokens: len(all)}
}

// partStats is a partition's document count and total length, or a change
// to them.
type partStats struct{ docs, tokens int64 }

// statsDelta gathers one transaction's changes to part_stats by partition,
// written once before it commits.
type statsDelta map[int64]*partStats

// add counts a document of tokens terms into (sign 1) or out of (sign -1)
// each partition of (tenant, user, agent).
func (d statsDelta) add(tenant, user, agent string, tokens, sign int64) {
	for _, k := range docKeys(tenant, user, agent) {
		p := d[k.part()]
		if p == nil {
			p = &partStats{}
			d[k.part()] = p
		}
		p.docs += sign
		p.tokens += sign * tokens
	}
}

// write applies the changes and moves every partition touched to a new
// generation (migration 32), even one whose counts came out even: its
// postings changed all the same. A partition left without documents loses
// its row.
//
// The partitions' cached posting lists are dropped from cache at once:
// their generation is gone, and an erased user's terms should not wait in
// memory for eviction. (Should the transaction roll back, the lists are
// only read again.)
func (d statsDelta) write(ctx context.Context, tx *sql.Tx, cache *postingCache) error {
	if len(d) == 0 {
		return nil
	}
	for part := range d {
		cache.dropPart(part)
	}
	var gen int64
	if err := tx.QueryRowContext(ctx, `UPDATE index_gen SET n = n + 1 RETURNING n`).Scan(&gen); err != nil {
		return fmt.Errorf("part stats: generation: %w", err)
	}
	for part, p := range d {
		if p.docs == 0 && p.tokens == 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE part_stats SET gen = ? WHERE part = ?`, gen, part); err != nil {
				return fmt.Errorf("part stats: %w", err)
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO part_stats (part, docs, tokens, gen) VALUES (?, ?, ?, ?)
			ON CONFLICT (part) DO UPDATE SET docs = docs + excluded.docs, tokens = tokens + excluded.tokens, gen = excluded.gen`,
			part, p.docs, p.tokens, gen); err != nil {
			return fmt.Errorf("part stats: %w", err)
		}
		if p.docs < 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM part_stats WHERE part = ? AND docs <= 0`, part); err != nil {
				return fmt.Errorf("part stats: %w", err)
			}
		}
	}
	return nil
}

// poster writes and removes postings in one write transaction and gathers
// the changes to part_stats (term_stats follows the postings by trigger);
// finish writes them before the commit.
type poster struct {
	insert, drop *sql.Stmt
	stats        statsDelta
	cache        *postingCache // the store's, whose lists finish drops
	// pending holds the postings of each document posted, by seq, until
	// finish inserts them all in key order: a batch's inserts then land
	// together in the postings' tree instead of all over it.
	pending map[int64][]postRow
}

// postRow is one posting waiting to be inserted.
type postRow struct {
	part    int64
	term    string
	tf, len int
}

// newPoster prepares the statements of a poster; close releases them.
func newPoster(ctx context.Context, tx *sql.Tx, cache *postingCache) (*poster, error) {
	insert, err := tx.PrepareContext(ctx, `INSERT INTO doc_terms (part, term, seq, tf, len) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	drop, err := tx.PrepareContext(ctx, unpostSQL)
	if err != nil {
		insert.Close()
		return nil, err
	}
	return &poster{insert: insert, drop: drop, stats: statsDelta{}, cache: cache, pending: map[int64][]postRow{}}, nil
}

func (p *poster) close() {
	p.insert.Close()
	p.drop.Close()
}

// post queues the postings of document seq under each of its partitions
// for finish and counts it in their statistics.
func (p *poster) post(seq int64, tenant, user, agent string, c termCounts) {
	var rows []postRow
	for _, k := range docKeys(tenant, user, agent) {
		for term, tf := range c.tf {
			rows = append(rows, postRow{part: k.part(), term: term, tf: tf, len: c.tokens})
		}
	}
	p.pending[seq] = rows
	p.stats.add(tenant, user, agent, int64(c.tokens), 1)
}

// finish inserts the pending postings and writes the statistics' changes.
func (p *poster) finish(ctx context.Context, tx *sql.Tx) error {
	type keyed struct {
		seq int64
		postRow
	}
	var all []keyed
	for seq, rows := range p.pending {
		for _, r := range rows {
			all = append(all, keyed{seq, r})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int {
		if a.part != b.part {
			return cmp.Compare(a.part, b.part)
		}
		if a.term != b.term {
			return strings.Compare(a.term, b.term)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	for _, r := range all {
		if _, err := p.insert.ExecContext(ctx, r.part, r.term, r.seq, r.tf, r.len); err != nil {
			return fmt.Errorf("post terms: %w", err)
		}
	}
	clear(p.pending)
	return p.stats.write(ctx, tx, p.cache)
}

// unpost removes the postings of document seq, of tokens terms, which stays
// in docs, and takes it out of its partitions' statistics.
func (p *poster) unpost(ctx context.Context, seq int64, tenant, user, agent string, tokens int64) error {
	// Postings of this batch are still pending, earlier ones stored.
	delete(p.pending, seq)
	if _, err := p.drop.ExecContext(ctx, seq); err != nil {
		return fmt.Errorf("drop terms: %w", err)
	}
	p.stats.add(tenant, user, agent, tokens, -1)
	return nil
}

// backfill posts every document that has no postings yet (tokens IS NULL:
// the documents of a file written before migration 4), backfillBatch
// documents per transaction, so that an interrupted backfill keeps what it
// committed and the next Open resumes it.
func (s *Store) backfill(ctx context.Context) error {
	for {
		n, err := s.postUnposted(ctx, backfillBatch)
		if err != nil {
			return fmt.Errorf("sqlite: backfill text index: %w", err)
		}
		if n < backfillBatch {
			return nil
		}
	}
}

// postUnposted posts up to limit unposted documents in one transaction and
// returns how many it found.
func (s *Store) postUnposted(ctx context.Context, limit int) (int, error) {
	type unposted struct {
		seq                       int64
		tenant, user, agent, text string
	}
	var n int
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, unpostedSQL, limit)
		if err != nil {
			return err
		}
		var docs []unposted
		for rows.Next() {
			var d unposted
			if err := rows.Scan(&d.seq, &d.tenant, &d.user, &d.agent, &d.text); err != nil {
				rows.Close()
				return err
			}
			docs = append(docs, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		p, err := newPoster(ctx, tx, s.postings)
		if err != nil {
			return err
		}
		defer p.close()
		for _, d := range docs {
			c := countTerms(d.text)
			p.post(d.seq, d.tenant, d.user, d.agent, c)
			if _, err := tx.ExecContext(ctx, `UPDATE docs SET tokens = ? WHERE seq = ?`, c.tokens, d.seq); err != nil {
				return err
			}
		}
		n = len(docs)
		return p.finish(ctx, tx)
	})
	return n, err
}

// SearchText ranks the scope's documents by BM25 over their text with the
// statistics of the scope's partition (see Text search), so other users'
// and tenants' documents never change a score. User text becomes terms
// (see queryTerms); text without any word finds nothing. Scores are
// higher-is-better, ties ordered by id.
func (x *Index) SearchText(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	if err := q.Scope.Validate(); err != nil {
		return nil, err
	}
	qterms := queryTerms(q.Text)
	if len(qterms) == 0 {
		return []lore.IndexHit{}, nil
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	// One read transaction, so that the statistics, the postings and the
	// documents checked are of the same snapshot.
	tx, err := x.s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, wrap("search text", err)
	}
	defer tx.Rollback()
	hits, err := searchText(ctx, txReader{tx, x.s.reads}, x.s.postings, q, qterms, limit)
	if err != nil {
		return nil, wrap("search text", err)
	}
	return hits, nil
}

// posting is one document holding a query term, with the term's BM25
// weight in it before IDF.
type posting struct {
	seq int64
	w   float64
}

// candidate is a document holding any query term, with its BM25 score (or
// a lower bound of it).
type candidate struct {
	seq   int64
	score float64
}

// searchText scores the postings of qterms in q's partition and returns the
// limit best documents that pass q's filters.
//
// It prunes as MaxScore does (Turtle and Flood, 1995): a term adds at most
// idf·(k1+1) to a score, so it reads the terms' postings rarest (highest
// bound) first, and as soon as limit documents that pass the filters
// score, on the terms read, more than the remaining terms' bounds together,
// no document missing from the lists read can rank. The remaining terms
// are then only looked up for the documents still within reach. Common
// terms, whose postings are the long ones, are the ones left; the hits and
// scores are those of a full evaluation.
//
// Long posting lists come from cache (postingcache.go; nil: none) when the
// partition is still at the generation they were read at.
func searchText(ctx context.Context, tx querier, cache *postingCache, q lore.IndexQuery, qterms []string, limit int) ([]lore.IndexHit, error) {
	part := readKey(q.Scope).part()
	var n, total, gen int64
	err := tx.QueryRowContext(ctx, `SELECT docs, tokens, gen FROM part_stats WHERE part = ?`, part).Scan(&n, &total, &gen)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (n <= 0 || total <= 0)) {
		// No documents, or none with a term: nothing can match.
		return []lore.IndexHit{}, nil
	}
	if err != nil {
		return nil, err
	}
	t := &termReader{tx: tx, part: part, gen: gen, cache: cache, avgdl: float64(total) / float64(n)}
	c := &checker{tx: tx, q: q, seen: map[int64]checked{}}
	k := len(qterms)
	lists := make([][]posting, k)
	idfs := make([]float64, k)
	dfs, err := docFreqs(ctx, tx, part, qterms)
	if err != nil {
		return nil, err
	}
	// The terms in order of their bound, rarest first; a term in no
	// document adds nothing.
	var order []int
	for i := range qterms {
		if dfs[i] > 0 {
			idfs[i] = idf(n, dfs[i])
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpDesc(idfs[a], idfs[b]) })
	// rest[j] bounds what the terms order[j:] add to any score.
	rest := make([]float64, len(order)+1)
	for j := len(order) - 1; j >= 0; j-- {
		rest[j] = rest[j+1] + idfs[order[j]]*(bm25K1+1)
	}
	// near is nil until pruning starts; then it holds, in seq order, the
	// documents that may still rank, the only ones the remaining terms
	// need to be looked up for.
	var near []int64
	for j, i := range order {
		if near != nil && len(near)*lookupCost < int(dfs[i]) {
			lists[i], err = t.some(ctx, qterms[i], near)
		} else {
			lists[i], err = t.all(ctx, qterms[i])
		}
		if err != nil {
			return nil, err
		}
		if j == len(order)-1 {
			break
		}
		// Scores on the terms read so far are lower bounds, and a document
		// scores at most floor more on the rest. pruneSlack keeps rounding
		// (sums in another order) from deciding.
		floor := rest[j+1] + pruneSlack
		partial := merge(lists, idfs)
		top, err := c.best(ctx, partial, limit, floor, false)
		if err != nil {
			return nil, err
		}
		if len(top) < limit {
			continue
		}
		// limit passing documents score at least theta, and any document
		// missing from partial at most rest[j+1]: only documents of partial
		// within floor of theta can still rank.
		theta := top[limit-1].Score
		var next []int64
		for _, cd := range partial {
			if cd.score+floor < theta {
				continue
			}
			if _, in := slices.BinarySearch(near, cd.seq); near == nil || in {
				next = append(next, cd.seq)
			}
		}
		near = next
	}
	// Documents left out of near may have lower scores here than in
	// full, as some of their terms were not read; they rank below the
	// limit-th hit either way.
	return c.rank(ctx, merge(lists, idfs), limit)
}

// Pruning settings: pruneSlack is far above the rounding error of a sum of
// at most maxQueryTerms shares and far below any difference that matters;
// looking a posting up by seq costs about lookupCost times reading one in
// a range (2.5 µs against 0.5 µs, measured with 100k postings).
const (
	pruneSlack = 1e-9
	lookupCost = 5
)

// termReader reads postings of one partition at generation gen, with their
// weights, through cache when it is set.
type termReader struct {
	tx    querier
	part  int64
	gen   int64
	cache *postingCache
	avgdl float64
}

// all returns every posting of term, in seq order. The list may be shared
// with other searches: callers do not change it.
func (t *termReader) all(ctx context.Context, term string) ([]posting, error) {
	key := postingKey{part: t.part, gen: t.gen, term: term}
	if t.cache != nil {
		if l, ok := t.cache.get(key); ok {
			return l, nil
		}
	}
	rows, err := t.tx.QueryContext(ctx, postingsSQL, t.part, term)
	if err != nil {
		return nil, err
	}
	l, err := t.scan(rows, nil)
	if err == nil && t.cache != nil {
		t.cache.put(key, l)
	}
	return l, err
}

// some returns the postings of term in the documents seqs, which are in
// ascending order, in seq order: from the whole list when it is cached.
func (t *termReader) some(ctx context.Context, term string, seqs []int64) ([]posting, error) {
	if t.cache != nil {
		if l, ok := t.cache.get(postingKey{part: t.part, gen: t.gen, term: term}); ok {
			return intersectSeqs(l, seqs), nil
		}
	}
	var out []posting
	for lo := 0; lo < len(seqs); lo += checkBatch {
		part := seqs[lo:min(lo+checkBatch, len(seqs))]
		args := make([]any, 0, 2+len(part))
		args = append(args, t.part, term)
		for _, seq := range part {
			args = append(args, seq)
		}
		rows, err := t.tx.QueryContext(ctx, postingsInSQL(len(part)), args...)
		if err != nil {
			return nil, err
		}
		if out, err = t.scan(rows, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// intersectSeqs returns the postings of l, in seq order, whose documents
// are in seqs (ascending).
func intersectSeqs(l []posting, seqs []int64) []posting {
	var out []posting
	i := 0
	for _, seq := range seqs {
		for i < len(l) && l[i].seq < seq {
			i++
		}
		if i == len(l) {
			break
		}
		if l[i].seq == seq {
			out = append(out, l[i])
		}
	}
	return out
}

// scan appends (seq, tf, len) rows to out with their weight
// tf·(k1+1) / (tf + k1·(1 − b + b·len/avgdl)), and closes them.
func (t *termReader) scan(rows *sql.Rows, out []posting) ([]posting, error) {
	defer rows.Close()
	for rows.Next() {
		var seq, tf, dl int64
		if err := rows.Scan(&seq, &tf, &dl); err != nil {
			return nil, err
		}
		f := float64(tf)
		out = append(out, posting{seq, f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(dl)/t.avgdl))})
	}
	return out, rows.Err()
}

// docFreqs returns the document frequency of each term in a partition.
func docFreqs(ctx context.Context, tx querier, part int64, qterms []string) ([]int64, error) {
	args := append([]any{part}, anys(qterms)...)
	rows, err := tx.QueryContext(ctx, docFreqsSQL(len(qterms)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byTerm := make(map[string]int64, len(qterms))
	for rows.Next() {
		var (
			term string
			df   int64
		)
		if err := rows.Scan(&term, &df); err != nil {
			return nil, err
		}
		byTerm[term] = df
	}
	dfs := make([]int64, len(qterms))
	for i, term := range qterms {
		dfs[i] = byTerm[term]
	}
	return dfs, rows.Err()
}

// idf is FTS5's BM25 IDF of a term in df of n documents.
func idf(n, df int64) float64 {
	v := math.Log((float64(n) - float64(df) + 0.5) / (float64(df) + 0.5))
	if v <= 0 {
		return minIDF
	}
	return v
}

// merge joins the query terms' postings, each sorted by seq, into one
// candidate per document, in seq order. A document's score sums its terms'
// shares in query-term order, so that it does not depend on the order in
// which they were read.
func merge(lists [][]posting, idfs []float64) []candidate {
	pos := make([]int, len(lists))
	size := 0
	for _, l := range lists {
		size = max(size, len(l))
	}
	out := make([]candidate, 0, size)
	for {
		seq, found := int64(math.MaxInt64), false
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].seq <= seq {
				seq, found = l[pos[i]].seq, true
			}
		}
		if !found {
			return out
		}
		var score float64
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].seq == seq {
				score += idfs[i] * l[pos[i]].w
				pos[i]++
			}
		}
		out = append(out, candidate{seq, score})
	}
}

// candHeap is a max-heap of candidates by score.
type candHeap []candidate

func (h candHeap) Len() int           { return len(h) }
func (h candHeap) Less(i, j int) bool { return h[i].score > h[j].score }
func (h candHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *candHeap) Push(x any)        { *h = append(*h, x.(candidate)) }
func (h *candHeap) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

// checker checks candidates against q's scope and filters on the docs
// table, and remembers the answers for the rest of the search.
type checker struct {
	tx   querier
	q    lore.IndexQuery
	seen map[int64]checked
}

// checked is what docs says of one candidate.
type checked struct {
	id   string
	kind lore.DocKind
	ok   bool // it passes the scope and filters
}

// rank returns the limit best candidates that pass the filters, by score
// and then id.
func (c *checker) rank(ctx context.Context, cands []candidate, limit int) ([]lore.IndexHit, error) {
	hits, err := c.best(ctx, cands, limit, math.Inf(-1), true)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(hits, func(a, b lore.IndexHit) int {
		if a.Score != b.Score {
			return cmpDesc(a.Score, b.Score)
		}
		return strings.Compare(a.ID, b.ID)
	})
	return hits[:min(len(hits), limit)], nil
}

// best returns, best first, the limit best candidates scoring above floor
// that pass the filters, and with ties those left that tie the last of
// them (ties are ordered by id, which only docs knows). It checks
// candidates best first, in batches that double while filters reject.
func (c *checker) best(ctx context.Context, cands []candidate, limit int, floor float64, ties bool) ([]lore.IndexHit, error) {
	h := candHeap(slices.Clone(cands))
	heap.Init(&h)
	hits := []lore.IndexHit{}
	take := min(limit, checkBatch)
	for h.Len() > 0 && h[0].score > floor {
		var batch []candidate
		if len(hits) < limit {
			for len(batch) < take && h.Len() > 0 && h[0].score > floor {
				batch = append(batch, heap.Pop(&h).(candidate))
			}
			take = min(2*take, checkBatch)
		} else {
			last := hits[limit-1].Score
			for ties && len(batch) < checkBatch && h.Len() > 0 && h[0].score == last {
				batch = append(batch, heap.Pop(&h).(candidate))
			}
			if len(batch) == 0 {
				break
			}
		}
		if err := c.check(ctx, batch); err != nil {
			return nil, err
		}
		// Batches come best first, so hits stay in descending score order.
		for _, cd := range batch {
			if d := c.seen[cd.seq]; d.ok {
				hits = append(hits, lore.IndexHit{ID: d.id, Kind: d.kind, Score: cd.score})
			}
		}
	}
	return hits, nil
}

// check looks up the candidates of batch not checked yet.
func (c *checker) check(ctx context.Context, batch []candidate) error {
	var seqs []int64
	for _, cd := range batch {
		if _, ok := c.seen[cd.seq]; !ok {
			seqs = append(seqs, cd.seq)
			c.seen[cd.seq] = checked{}
		}
	}
	if len(seqs) == 0 {
		return nil
	}
	query, args := checkQuery(c.q, seqs)
	rows, err := c.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			seq      int64
			id, kind string
		)
		if err := rows.Scan(&seq, &id, &kind); err != nil {
			return err
		}
		c.seen[seq] = checked{id: id, kind: lore.DocKind(kind), ok: true}
	}
	return rows.Err()
}

// checkQuery returns the statement selecting the documents among seqs that
// q's scope and filters select.
func checkQuery(q lore.IndexQuery, seqs []int64) (string, []any) {
	var w where
	args := make([]any, len(seqs))
	for i, seq := range seqs {
		args[i] = seq
	}
	w.add("d.seq IN ("+placeholders(len(seqs))+")", args...)
	// The unary + of scopeFilter keeps SQLite on the primary key: a scope
	// index would read all of the user's documents.
	w.scopeFilter("d.", q.Scope)
	filterDocs(&w, "d.", q)
	return `SELECT d.seq, d.id, d.kind FROM docs d WHERE ` + w.sql(), w.args
}

// queryTerms returns the distinct terms of the words matchTerms keeps from
// user text. A word that analyzes into several terms (rare: marks of some
// scripts split words) adds each, so where FTS5 matched them as a phrase
// any of them now matches.
func queryTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, word := range matchTerms(text) {
		for _, t := range terms.Analyze(word) {
			if !seen[t] && len(out) < maxQueryTerms {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
