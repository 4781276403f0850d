package ingest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
)

// defaultConfidence is given to facts whose extractor left confidence unset.
const defaultConfidence = 0.7

// userAliases returns the words by which a speaker refers to themself;
// facts about any of them are facts about the scope's user entity.
func userAliases() []string { return []string{"user", "i", "me", "myself"} }

// extractEpisodes runs extraction over episodes of one scope in batches of
// Config.BatchSize, merges the results into the graph, indexes the facts and
// re-indexes the episodes with them. Verbatim episodes are skipped.
func (s *Service) extractEpisodes(ctx context.Context, scope lore.Scope, eps []*lore.Episode) ([]lore.MemoryEvent, error) {
	if s.Extractor == nil {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "no extractor is configured")
	}
	eps = slices.DeleteFunc(slices.Clone(eps), func(ep *lore.Episode) bool { return ep.Verbatim })
	n := s.cfg().BatchSize
	var events []lore.MemoryEvent
	for start := 0; start < len(eps); start += n {
		ev, err := s.extractBatch(ctx, scope, eps[start:min(start+n, len(eps))])
		if err != nil {
			return events, err
		}
		events = append(events, ev...)
	}
	return events, nil
}

// batchRun holds the state of applying one extraction to the graph.
type batchRun struct {
	s        *Service
	scope    lore.Scope // the episodes' scope
	ns       lore.Scope // the namespace that owns the graph
	eps      map[string]*lore.Episode
	order    []*lore.Episode
	cands    []*lore.Entity
	candFact []*lore.Fact
	actor    string
	name     string // the extractor's name and version
	now      time.Time
	single   lore.PredicateSet // single-valued predicates

	user     *lore.Entity
	resolved map[string]*lore.Entity // normalized name or alias → stored entity
	events   []lore.MemoryEvent
	stored   map[string]*lore.Fact   // facts added or merged, by id
	byEp     map[string][]*lore.Fact // facts per source episode
}

// newRun starts applying facts stated in eps (none for facts written
// through the API) to the scope's graph.
func (s *Service) newRun(scope lore.Scope, eps []*lore.Episode) *batchRun {
	r := &batchRun{
		s: s, scope: scope, ns: scope.Namespace(), eps: map[string]*lore.Episode{}, order: eps, now: s.now(), single: s.singleValued(),
		resolved: map[string]*lore.Entity{}, stored: map[string]*lore.Fact{}, byEp: map[string][]*lore.Fact{},
	}
	for _, ep := range eps {
		r.eps[ep.ID] = ep
	}
	return r
}

// seen returns when the run's facts were stated: the span of its episodes,
// or now for facts written through the API.
func (r *batchRun) seen() (first, last time.Time) {
	if len(r.order) == 0 {
		return r.now, r.now
	}
	return timeRange(r.order)
}

// extractBatch extracts from one batch and applies the result.
func (s *Service) extractBatch(ctx context.Context, scope lore.Scope, eps []*lore.Episode) ([]lore.MemoryEvent, error) {
	if len(eps) == 0 {
		return nil, nil
	}
	r := s.newRun(scope, eps)
	var err error
	if r.cands, r.candFact, err = s.candidates(ctx, scope, eps); err != nil {
		return nil, err
	}
	ext, err := s.Extractor.Extract(ctx, lore.ExtractRequest{Scope: scope, Episodes: eps, Entities: r.cands, Facts: r.candFact})
	if err != nil {
		return nil, extractorFailure{fmt.Errorf("ingest: extract: %w", err)}
	}
	if ext == nil {
		return nil, lore.Errorf(lore.EINTERNAL, "extractor returned no extraction and no error")
	}
	r.name = ext.Extractor
	r.actor = "extractor"
	if r.name != "" {
		r.actor = "extractor:" + r.name
	}
	for _, why := range ext.Rejected {
		s.logger().Info("ingest: extractor rejected output", "tenant", scope.TenantID, "extractor", r.name, "reason", why)
	}
	prev, err := s.previousTurns(ctx, eps)
	if err != nil {
		return nil, err
	}
	if err := s.scoreFacts(ctx, scope, ext, eps, prev); err != nil {
		return nil, err
	}
	if err := r.apply(ctx, ext); err != nil {
		return nil, err
	}
	facts := make([]*lore.Fact, 0, len(r.stored))
	for _, f := range r.stored {
		facts = append(facts, f)
	}
	slices.SortFunc(facts, func(a, b *lore.Fact) int { return strings.Compare(a.ID, b.ID) })
	// One upsert for facts and episodes: each index write is a durable
	// transaction, and ingestion throughput is bounded by their number.
	docs := factDocs(facts)
	docs = append(docs, episodeDocs(eps, prev, r.byEp)...)
	if err := s.upsert(ctx, docs); err != nil {
		return nil, err
	}
	return r.events, nil
}

// candidates finds the existing entities a batch may mention — by name or
// alias among the text's word n-grams, and, with an embedder, the entities
// of the facts nearest to the text — and the current facts about them.
// With Config.SkipNearestWhenNamed, a batch that names an entity other
// than the user skips the nearest facts: one embedding of the batch's text
// (up to the model's 256 tokens) and one vector search fewer.
func (s *Service) candidates(ctx context.Context, scope lore.Scope, eps []*lore.Episode) ([]*lore.Entity, []*lore.Fact, error) {
	cfg := s.cfg()
	ns := scope.Namespace()
	var text strings.Builder
	for _, ep := range eps {
		text.WriteString(ep.Speaker)
		text.WriteString(": ")
		text.WriteString(ep.Content)
		text.WriteString("\n")
	}
	names := ngrams(text.String(), cfg.MaxNGram)
	names = append(names, terms.CJKGrams(text.String(), 2, 4)...) // Chinese names: 「小美住在東京」
	names = append(names, userName(scope))
	found := map[string]*lore.Entity{}
	const chunk = 400
	for start := 0; start < len(names); start += chunk {
		ents, err := s.Store.FindEntities(ctx, lore.EntityFilter{Scope: ns, Names: names[start:min(start+chunk, len(names))]})
		if err != nil {
			return nil, nil, fmt.Errorf("ingest: find candidate entities: %w", err)
		}
		for _, e := range ents {
			found[e.ID] = e
		}
	}
	var seedFacts []*lore.Fact
	if s.Embedder != nil && !(cfg.SkipNearestWhenNamed && namesOther(found)) {
		vecs, err := s.embed(ctx, []string{text.String()})
		if err != nil {
			return nil, nil, err
		}
		hits, err := s.Index.SearchVector(ctx, lore.IndexQuery{Scope: ns, Vector: vecs[0], Kinds: []lore.DocKind{lore.KindFact}, Limit: cfg.MaxCandidateFacts})
		if err != nil {
			return nil, nil, fmt.Errorf("ingest: search candidate facts: %w", err)
		}
		if len(hits) > 0 {
			ids := make([]string, len(hits))
			for i, h := range hits {
				ids[i] = h.ID
			}
			if seedFacts, err = s.Store.FindFacts(ctx, lore.FactFilter{Scope: ns, IDs: ids}); err != nil {
				return nil, nil, fmt.Errorf("ingest: load candidate facts: %w", err)
			}
			// Nearest first, as the index ranked them.
			slices.SortStableFunc(seedFacts, func(a, b *lore.Fact) int {
				return slices.Index(ids, a.ID) - slices.Index(ids, b.ID)
			})
			var entIDs []string
			for _, f := range seedFacts {
				for _, id := range []string{f.SubjectID, f.ObjectID} {
					if id != "" && found[id] == nil && !slices.Contains(entIDs, id) {
						entIDs = append(entIDs, id)
					}
				}
			}
			if len(entIDs) > 0 {
				ents, err := s.Store.FindEntities(ctx, lore.EntityFilter{Scope: ns, IDs: entIDs})
				if err != nil {
					return nil, nil, fmt.Errorf("ingest: load candidate entities: %w", err)
				}
				for _, e := range ents {
					found[e.ID] = e
				}
			}
		}
	}
	ents := make([]*lore.Entity, 0, len(found))
	for _, e := range found {
		ents = append(ents, e)
	}
	// The most mentioned entities are the likeliest to be meant. Ties go by
	// name, so the same graph always yields the same extractor request
	// (and the same cache key for extractors that cache).
	slices.SortFunc(ents, func(a, b *lore.Entity) int {
		if a.Mentions != b.Mentions {
			return b.Mentions - a.Mentions
		}
		if c := strings.Compare(a.NormalizedName, b.NormalizedName); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if len(ents) > cfg.MaxCandidateEntities {
		ents = ents[:cfg.MaxCandidateEntities]
	}

	// Facts: those nearest the text first, then each entity's share of
	// the remaining room so one busy entity does not crowd out the rest.
	var facts []*lore.Fact
	seen := map[string]bool{}
	add := func(f *lore.Fact) {
		if len(facts) < cfg.MaxCandidateFacts && !seen[f.ID] {
			seen[f.ID] = true
			facts = append(facts, f)
		}
	}
	for _, f := range seedFacts {
		add(f)
	}
	if len(ents) > 0 {
		share := max((cfg.MaxCandidateFacts-len(facts))/len(ents), 3)
		for _, e := range ents {
			if len(facts) >= cfg.MaxCandidateFacts {
				break
			}
			fs, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: ns, EntityID: e.ID, Limit: share})
			if err != nil {
				return nil, nil, fmt.Errorf("ingest: find candidate facts: %w", err)
			}
			for _, f := range fs {
				add(f)
			}
		}
	}
	return ents, facts, nil
}

// namesOther reports whether the entities found by name include one that
// is not the user.
func namesOther(found map[string]*lore.Entity) bool {
	for _, e := range found {
		if e.Type != lore.UserEntityType {
			return true
		}
	}
	return false
}

// ngrams returns the distinct normalized word n-grams of text, n from 1 to
// maxN, as entity name lookups.
func ngrams(text string, maxN int) []string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' && r != '.' && r != '&'
	})
	for i, w := range words {
		// "Emma's" names Emma.
		words[i] = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'S")
	}
	seen := map[string]bool{}
	var out []string
	for i := range words {
		for n := 1; n <= maxN && i+n <= len(words); n++ {
			g := lore.NormalizeName(strings.Join(words[i:i+n], " "))
			if g != "" && !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// userName is the name of the entity standing for the scope's user.
func userName(scope lore.Scope) string {
	if scope.UserID != "" {
		return scope.UserID
	}
	return "user"
}

// isUser reports whether an extracted name and type refer to the user.
func (r *batchRun) isUser(name, typ string) bool {
	if typ == lore.UserEntityType {
		return true
	}
	n := lore.NormalizeName(name)
	return slices.Contains(userAliases(), n) || n == lore.NormalizeName(userName(r.scope))
}

// timeRange returns the earliest and latest OccurredAt of the episodes.
func timeRange(eps []*lore.Episode) (first, last time.Time) {
	for i, ep := range eps {
		if i == 0 || ep.OccurredAt.Before(first) {
			first = ep.OccurredAt
		}
		if i == 0 || ep.OccurredAt.After(last) {
			last = ep.OccurredAt
		}
	}
	return first, last
}
