package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lore-memory/lore"
)

// Tagged returns ctx with a fresh outbox tag (lore.WithOutboxTag) unless it
// carries one: the store tags the outbox entries of writes made under it,
// and the index writes that follow acknowledge them (see upsert).
func Tagged(ctx context.Context) context.Context {
	if lore.OutboxTag(ctx) != "" {
		return ctx
	}
	return lore.WithOutboxTag(ctx, lore.NewOutboxTag())
}

// ack acknowledges the outbox entries that ctx's writes recorded for the
// memories of docIDs, now that the index holds them. A failure only leaves
// them to the outbox worker, which applies them again, harmlessly.
func (s *Service) ack(ctx context.Context, docIDs []string) {
	if err := lore.AckIndexed(ctx, s.Store, docIDs); err != nil {
		s.logger().Warn("ingest: acknowledge outbox entries; the outbox worker will apply them again", "err", err)
	}
}

// IndexLater is for an index write that failed after the store change it
// follows committed: with a store that keeps an outbox, the change is
// already recorded there and the outbox worker applies it, so the failure
// is logged and nil returned; otherwise err is returned. A write refused
// because its scope was erased stays an error.
func (s *Service) IndexLater(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, lore.ErrScopeErased) {
		return err
	}
	if _, ok := s.Store.(lore.Outbox); !ok {
		return err
	}
	s.logger().Warn("ingest: index write failed; the outbox worker will apply it", "err", err)
	return nil
}

// OutboxWorker applies a store's outbox (lore.Outbox) to the index: each
// entry is re-read from the store and its documents written or deleted,
// with retries and backoff, and deleted only once the index took it.
// `lore serve` runs one; tests call Drain.
type OutboxWorker struct {
	Service *Service
	Outbox  lore.Outbox
	// TenantID limits the worker to one tenant ("" for all).
	TenantID string
	// Interval is the pause between polls when nothing is due (1 s).
	Interval time.Duration
	// Batch is the number of entries taken at once (100).
	Batch int
	// Lease keeps taken entries from other workers meanwhile (1 min).
	Lease time.Duration
	// MaxBackoff bounds the wait before a failed entry's next attempt
	// (1 min; the first retry waits 1 s, then it doubles).
	MaxBackoff time.Duration
	// Now is the clock (time.Now).
	Now func() time.Time
}

func (w *OutboxWorker) now() time.Time {
	if w.Now != nil {
		return w.Now()
	}
	return time.Now()
}

// Run drains the outbox until ctx ends.
func (w *OutboxWorker) Run(ctx context.Context) error {
	interval := w.Interval
	if interval <= 0 {
		interval = time.Second
	}
	for {
		if _, err := w.Drain(ctx, w.now()); err != nil && ctx.Err() == nil {
			w.Service.logger().Warn("ingest: outbox", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}

// OutboxStats counts what one Drain did.
type OutboxStats struct {
	Applied int // entries applied and deleted
	Failed  int // entries that failed and wait for a retry
}

// Drain applies the entries due at now, batch after batch, until none is
// due (entries that fail wait for their backoff). It returns the first
// failure with the counts.
func (w *OutboxWorker) Drain(ctx context.Context, now time.Time) (OutboxStats, error) {
	batch := w.Batch
	if batch <= 0 {
		batch = 100
	}
	lease := w.Lease
	if lease <= 0 {
		lease = time.Minute
	}
	var (
		st    OutboxStats
		first error
	)
	for ctx.Err() == nil {
		entries, err := w.Outbox.ClaimOutbox(ctx, w.TenantID, now, lease, batch)
		if err != nil {
			return st, fmt.Errorf("ingest: claim outbox: %w", err)
		}
		for _, g := range groupEntries(entries) {
			err := w.Service.applyOutbox(ctx, g)
			seqs := make([]int64, len(g))
			for i, e := range g {
				seqs[i] = e.Seq
			}
			if err == nil {
				if err := w.Outbox.DoneOutbox(ctx, seqs); err != nil {
					return st, fmt.Errorf("ingest: outbox done: %w", err)
				}
				st.Applied += len(g)
				continue
			}
			if first == nil {
				first = err
			}
			for _, e := range g {
				next := w.now().Add(w.backoff(e.Attempts))
				if ferr := w.Outbox.FailOutbox(ctx, e.Seq, next, err.Error()); ferr != nil {
					return st, fmt.Errorf("ingest: outbox fail: %w", ferr)
				}
				st.Failed++
			}
		}
		if len(entries) < batch {
			break
		}
	}
	return st, first
}

// backoff is the wait before attempt attempts+1: 1 s doubling up to
// MaxBackoff.
func (w *OutboxWorker) backoff(attempts int) time.Duration {
	limit := w.MaxBackoff
	if limit <= 0 {
		limit = time.Minute
	}
	d := time.Second
	for i := 1; i < attempts && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// groupEntries splits entries into groups of one scope and kind, in the
// order they first appear.
func groupEntries(entries []lore.OutboxEntry) [][]lore.OutboxEntry {
	type key struct {
		sc   lore.Scope
		kind lore.DocKind
	}
	var order []key
	groups := map[key][]lore.OutboxEntry{}
	for _, e := range entries {
		k := key{e.Scope, e.Kind}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	out := make([][]lore.OutboxEntry, len(order))
	for i, k := range order {
		out[i] = groups[k]
	}
	return out
}

// applyOutbox brings the index documents of a group of entries (one scope
// and kind) in line with the store as it is now: what the store holds is
// written, what it no longer holds (deleted, expired, erased) is deleted.
func (s *Service) applyOutbox(ctx context.Context, g []lore.OutboxEntry) error {
	// Deleting what an erase left is never refused.
	ctx = lore.WithoutFence(ctx)
	sc, kind := g[0].Scope, g[0].Kind
	if kind == lore.KindScope {
		if err := s.Index.DeleteScope(ctx, sc); err != nil {
			return fmt.Errorf("ingest: outbox: delete scope: %w", err)
		}
		return nil
	}
	ids := make([]string, 0, len(g))
	old := map[string]bool{}
	for _, e := range g {
		ids = append(ids, e.MemoryID)
		old[e.MemoryID] = true
		for _, d := range e.DocIDs {
			old[d] = true
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var docs []lore.IndexDoc
	switch kind {
	case lore.KindFact:
		facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: sc, IDs: ids, IncludeInvalidated: true, Limit: len(ids)})
		if err != nil {
			return fmt.Errorf("ingest: outbox: load facts: %w", err)
		}
		docs = factDocs(facts)
	case lore.KindEpisode:
		eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: ids, Limit: len(ids)})
		if err != nil {
			return fmt.Errorf("ingest: outbox: load episodes: %w", err)
		}
		if docs, err = s.expectedEpisodeDocs(ctx, sc, eps); err != nil {
			return err
		}
	default:
		return lore.Errorf(lore.EINVALID, "outbox entry kind %q is unknown", kind)
	}
	for _, d := range docs {
		delete(old, d.ID)
	}
	if len(old) > 0 {
		gone := make([]string, 0, len(old))
		for id := range old {
			gone = append(gone, id)
		}
		slices.Sort(gone)
		if err := s.Index.Delete(ctx, sc, gone); err != nil {
			return fmt.Errorf("ingest: outbox: delete documents: %w", err)
		}
	}
	return s.upsert(ctx, docs)
}

// expectedEpisodeDocs returns the index documents episodes should have, as
// Reindex writes them: keyed with the turn before and the sentences of
// every fact drawn from them. An episode whose raw text was dropped has
// none.
func (s *Service) expectedEpisodeDocs(ctx context.Context, sc lore.Scope, eps []*lore.Episode) ([]lore.IndexDoc, error) {
	eps = slices.DeleteFunc(eps, func(ep *lore.Episode) bool { return ep.Content == "" })
	if len(eps) == 0 {
		return nil, nil
	}
	want := map[string]bool{}
	for _, ep := range eps {
		want[ep.ID] = true
	}
	bySource, err := s.factsBySource(ctx, sc.Namespace(), want)
	if err != nil {
		return nil, err
	}
	prev, err := s.previousTurns(ctx, eps)
	if err != nil {
		return nil, err
	}
	return episodeDocs(eps, prev, bySource), nil
}

// factsBySource returns the facts (current and invalidated) of the scope
// drawn from the episodes in want (every episode for nil), by episode id,
// holding only their text.
func (s *Service) factsBySource(ctx context.Context, sc lore.Scope, want map[string]bool) (map[string][]*lore.Fact, error) {
	const page = 500
	bySource := map[string][]*lore.Fact{}
	for off := 0; ; off += page {
		facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true, Limit: page, Offset: off})
		if err != nil {
			return nil, fmt.Errorf("ingest: facts by source: %w", err)
		}
		for _, f := range facts {
			slim := &lore.Fact{Text: f.Text}
			for _, id := range f.SourceEpisodeIDs {
				if want == nil || want[id] {
					bySource[id] = append(bySource[id], slim)
				}
			}
		}
		if len(facts) < page {
			return bySource, nil
		}
	}
}
