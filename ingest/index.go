package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lore-memory/lore"
)

// metaEmbedder is the MetaStore key under which the embedder a store was
// built with is recorded.
const metaEmbedder = "embedder"

// IndexFacts embeds facts (when an embedder is set) and upserts them into
// the index under lore.FactKey. The api package calls it after it
// changes a fact.
func (s *Service) IndexFacts(ctx context.Context, facts []*lore.Fact) error {
	return s.upsert(ctx, factDocs(facts))
}

// IndexEpisodes embeds episodes (when an embedder is set) and upserts them
// into the index under lore.EpisodeKey, without their facts. The api
// package calls it after it changes an episode.
func (s *Service) IndexEpisodes(ctx context.Context, eps []*lore.Episode) error {
	prev, err := s.previousTurns(ctx, eps)
	if err != nil {
		return err
	}
	return s.upsert(ctx, episodeDocs(eps, prev, nil))
}

// previousTurns finds the turn before each episode in its conversation,
// for its index key: the episode before it in eps when eps run in time
// order, otherwise (and for the first of each run) the store's.
func (s *Service) previousTurns(ctx context.Context, eps []*lore.Episode) (map[string]*lore.Episode, error) {
	window := s.cfg().ContextWindow
	prev := make(map[string]*lore.Episode, len(eps))
	for i, ep := range eps {
		if i > 0 {
			p := eps[i-1]
			if p.Scope == ep.Scope && !p.OccurredAt.After(ep.OccurredAt) && ep.OccurredAt.Sub(p.OccurredAt) <= window {
				prev[ep.ID] = p
				continue
			}
		}
		before, _, err := lore.EpisodesAround(ctx, s.Store, ep, window, 1)
		if err != nil {
			return nil, fmt.Errorf("ingest: %w", err)
		}
		if len(before) > 0 {
			prev[ep.ID] = before[0]
		}
	}
	return prev, nil
}

// factDocs returns the index documents of facts.
func factDocs(facts []*lore.Fact) []lore.IndexDoc {
	docs := make([]lore.IndexDoc, len(facts))
	for i, f := range facts {
		docs[i] = lore.IndexDoc{ID: f.ID, Kind: lore.KindFact, Scope: f.Scope, Text: lore.FactKey(f), Time: f.LastSeen}
	}
	return docs
}

// episodeDocs returns the index documents of episodes, each keyed with the
// turn before it and the facts extracted from it (both by episode id; nil
// for none). An episode longer than lore.PassageThreshold is indexed as its
// passages instead (see passageDocs); a short list also as its items
// (see itemDocs).
func episodeDocs(eps []*lore.Episode, prev map[string]*lore.Episode, facts map[string][]*lore.Fact) []lore.IndexDoc {
	docs := make([]lore.IndexDoc, 0, len(eps))
	for _, ep := range eps {
		ps := lore.Passages(ep.Content)
		if !lore.IndexedWhole(ep.Content) {
			docs = append(docs, passageDocs(ep, ps, prev[ep.ID])...)
			continue
		}
		docs = append(docs, lore.IndexDoc{ID: ep.ID, Kind: lore.KindEpisode, Scope: ep.Scope, Text: lore.EpisodeKey(ep, prev[ep.ID], facts[ep.ID]), Time: ep.OccurredAt})
		if ep.Role == "user" {
			// An assistant's short list is an answer it generated, found
			// as a whole; its items would only outrank what the user said.
			docs = append(docs, itemDocs(ep, ps)...)
		}
	}
	return docs
}

// itemDocs returns the index documents of a short list's items, under
// lore.PassageID ids, each keyed with the item alone: "left the Lee
// Swallows, singing with Velvet Static now" is found for "what band do I
// sing with?" although the rest of the list is about a car and a gym.
func itemDocs(ep *lore.Episode, items []lore.Passage) []lore.IndexDoc {
	docs := make([]lore.IndexDoc, len(items))
	for i, p := range items {
		part := *ep
		part.Content = p.Text
		docs[i] = lore.IndexDoc{ID: lore.PassageID(ep.ID, p.Index), Kind: lore.KindEpisode, Scope: ep.Scope, Text: lore.EpisodeKey(&part, nil, nil), Time: ep.OccurredAt}
	}
	return docs
}

// passageDocs returns the index documents of a long episode's passages,
// under lore.PassageID ids: one document of the whole would be found by
// nothing (BM25 normalises by length, an embedder reads its first few
// hundred words). The first passage carries the turn before, as a whole
// episode's key does. The extracted facts' sentences are left out: they
// are indexed as facts, and a passage found by them would not be where
// the text says what the search asked.
func passageDocs(ep *lore.Episode, ps []lore.Passage, prev *lore.Episode) []lore.IndexDoc {
	docs := make([]lore.IndexDoc, len(ps))
	for i, p := range ps {
		part := *ep
		part.Content = p.Text
		text := lore.EpisodeKey(&part, nil, nil)
		if i == 0 {
			text = lore.EpisodeKey(&part, prev, nil)
		}
		docs[i] = lore.IndexDoc{ID: lore.PassageID(ep.ID, i), Kind: lore.KindEpisode, Scope: ep.Scope, Text: text, Time: ep.OccurredAt}
	}
	return docs
}

// EpisodeDocIDs returns every index document id an episode may have: its
// own and, for a long one, its passages'. The api package deletes them
// when the episode is deleted or its content changes.
func EpisodeDocIDs(ep *lore.Episode) []string {
	ids := []string{ep.ID}
	for _, p := range lore.Passages(ep.Content) {
		ids = append(ids, lore.PassageID(ep.ID, p.Index))
	}
	return ids
}

// upsert embeds the documents' texts in batches and writes them to the
// index in the same batches, so a large reindex never holds every vector.
func (s *Service) upsert(ctx context.Context, docs []lore.IndexDoc) error {
	if len(docs) == 0 {
		return nil
	}
	n := s.cfg().EmbedBatchSize
	// A memory's entries are acknowledged with the batch that holds its
	// last document (an episode's passages may span batches).
	last := make(map[string]int, len(docs))
	for i, d := range docs {
		last[lore.OutboxMemoryID(d.ID)] = i
	}
	for start := 0; start < len(docs); start += n {
		end := min(start+n, len(docs))
		batch := docs[start:end]
		var done []string
		for _, d := range batch {
			if m := lore.OutboxMemoryID(d.ID); last[m] < end && !slices.Contains(done, m) {
				done = append(done, m)
			}
		}
		if s.Embedder != nil {
			texts := make([]string, len(batch))
			for i, d := range batch {
				texts[i] = d.Text
			}
			vecs, err := s.embed(ctx, texts)
			if err != nil {
				return err
			}
			for i := range batch {
				batch[i].Vector = vecs[i]
			}
		}
		if err := s.Index.Upsert(lore.WithOutboxAck(ctx, done), batch); err != nil {
			return fmt.Errorf("ingest: index upsert: %w", err)
		}
		if err := s.checkIndexFence(ctx, batch); err != nil {
			return err
		}
		s.ack(ctx, done)
	}
	return nil
}

// Reindex re-embeds and re-indexes every episode and fact (current and
// invalidated) that the scope contains, for instance after the embedder
// changed. It returns the number of documents written.
func (s *Service) Reindex(ctx context.Context, scope lore.Scope) (int, error) {
	scope = scope.WithDefaults()
	if err := scope.Validate(); err != nil {
		return 0, err
	}
	// An erase of the scope meanwhile refuses (or takes back) the rest.
	ctx, cancelFence, err := s.fence(ctx, scope)
	if err != nil {
		return 0, err
	}
	defer cancelFence()
	const page = 500
	total := 0
	// Episode keys include the sentences of their facts; only the text is
	// kept, so a large scope does not hold every fact twice.
	bySource := map[string][]*lore.Fact{}
	for off := 0; ; off += page {
		facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: true, Limit: page, Offset: off})
		if err != nil {
			return total, fmt.Errorf("ingest: reindex facts: %w", err)
		}
		if err := s.IndexFacts(ctx, facts); err != nil {
			return total, err
		}
		for _, f := range facts {
			slim := &lore.Fact{Text: f.Text}
			for _, id := range f.SourceEpisodeIDs {
				bySource[id] = append(bySource[id], slim)
			}
		}
		total += len(facts)
		if len(facts) < page {
			break
		}
	}
	for off := 0; ; off += page {
		eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, Limit: page, Offset: off})
		if err != nil {
			return total, fmt.Errorf("ingest: reindex episodes: %w", err)
		}
		// The scope may hold several agents' and runs' conversations
		// interleaved; previousTurns keeps each to its own.
		prev, err := s.previousTurns(ctx, eps)
		if err != nil {
			return total, err
		}
		if err := s.upsert(ctx, episodeDocs(eps, prev, bySource)); err != nil {
			return total, err
		}
		total += len(eps)
		if len(eps) < page {
			break
		}
	}
	if s.Embedder != nil {
		if err := s.recordEmbedder(ctx); err != nil {
			return total, err
		}
	}
	return total, nil
}

// CheckEmbedder compares the configured embedder with the one the store was
// built with. The first start records it; a different one is refused with
// ECONFLICT naming `lore reindex`, since vectors of two models cannot be
// compared. Without an embedder there is nothing to check.
func (s *Service) CheckEmbedder(ctx context.Context) error {
	if s.Embedder == nil {
		return nil
	}
	want := s.Embedder.Info()
	have, ok, err := RecordedEmbedder(ctx, s.Store)
	if err != nil {
		return err
	}
	if !ok {
		return s.recordEmbedder(ctx)
	}
	if have != want {
		return lore.Errorf(lore.ECONFLICT, "store was built with %s (dim %d); run `lore reindex` to re-embed with %s (dim %d)",
			have.Name, have.Dim, want.Name, want.Dim)
	}
	return nil
}

// RecordedEmbedder returns the embedder a store was built with, and false
// when it records none (a new store, or one built without vectors).
func RecordedEmbedder(ctx context.Context, store lore.MetaStore) (lore.EmbedderInfo, bool, error) {
	raw, err := store.GetMeta(ctx, metaEmbedder)
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		return lore.EmbedderInfo{}, false, nil
	} else if err != nil {
		return lore.EmbedderInfo{}, false, fmt.Errorf("ingest: read embedder meta: %w", err)
	}
	var have lore.EmbedderInfo
	if err := json.Unmarshal([]byte(raw), &have); err != nil {
		return lore.EmbedderInfo{}, false, fmt.Errorf("ingest: decode embedder meta %q: %w", raw, err)
	}
	return have, true, nil
}

// recordEmbedder writes the configured embedder's info to the MetaStore.
func (s *Service) recordEmbedder(ctx context.Context) error {
	b, err := json.Marshal(s.Embedder.Info())
	if err != nil {
		return fmt.Errorf("ingest: encode embedder meta: %w", err)
	}
	if err := s.Store.SetMeta(ctx, metaEmbedder, string(b)); err != nil {
		return fmt.Errorf("ingest: write embedder meta: %w", err)
	}
	return nil
}
