package retrieve

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lore-memory/lore"
)

// search runs the stages: analyse, candidates, hydrate, temporal, fuse,
// neighbouring turns, speaker focus, filter, turn evidence, diversify,
// sources, spread over conversations (aggregating queries), context.
func (p *Pipeline) search(ctx context.Context, req Request) (*Response, error) {
	if err := p.Config.Validate(); err != nil { // the operator's settings, not the request: not a 400
		return nil, lore.Errorf(lore.EINTERNAL, "retrieve: config: %s", lore.ErrorMessage(err))
	}
	req.Scope = req.Scope.WithDefaults()
	if err := req.Scope.Validate(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Query) == "" {
		return nil, lore.Errorf(lore.EINVALID, "query is required")
	}
	if req.TopK < 0 {
		return nil, lore.Errorf(lore.EINVALID, "top_k must not be negative")
	}
	if req.TopK == 0 {
		req.TopK = DefaultTopK
	}
	kinds, err := requestKinds(req.Kinds)
	if err != nil {
		return nil, err
	}
	if req.Since != nil && req.Until != nil && !req.Since.Before(*req.Until) {
		return nil, lore.Errorf(lore.EINVALID, "since must be before until")
	}
	now := p.now()
	if !req.Now.IsZero() {
		now = req.Now
	}
	at := asOf{T: req.QueryTime, Now: now, Explicit: !req.QueryTime.IsZero()}
	if req.QueryTime.IsZero() {
		req.QueryTime, at.T = now, now
	}
	cfg := p.Config
	if req.personal, err = p.personalize(ctx, req); err != nil {
		return nil, err
	}
	req.Query = p.rewrite(ctx, req.Query, req.personal)
	stage := p.stageTimer()
	a := analyse(req.Query, req.QueryTime, p.temporal())
	stage(StageAnalyse)
	intent := p.classify(ctx, req)

	c, err := p.candidates(ctx, req, kinds, a, at)
	if err != nil {
		return nil, err
	}
	stage(StageCandidates)
	passages := foldPassages(c)           // long episodes' passage hits → the episode (passages.go)
	pre := p.prefetchSignals(ctx, req, c) // signals.go: read while hydrating
	if err := p.hydrate(ctx, req.Scope, c); err != nil {
		return nil, err
	}
	stage(StageHydrate)
	p.policyFilter(req, c) // policy.go: denied memories leave before ranking
	if c.mentions != nil {
		var dense map[string]float64
		for _, s := range c.signals {
			if s.Name == SignalDense {
				dense = s.Scores
			}
		}
		scoreMentions(c.mentions, c.episodes, c.kind, dense)
	}
	if cfg.Signals.Temporal && len(a.Spans) > 0 {
		c.signals = append(c.signals, signal{Name: SignalTemporal, Weight: cfg.Weights.Temporal, Scores: temporalScores(c, a.Spans), Absolute: true})
	}
	personal, pst, err := p.personal(ctx, req, c, intent, now, pre) // signals.go
	if err != nil {
		return nil, err
	}
	c.signals = append(c.signals, personal...)
	if cfg.SelfNoExpansion && c.self != nil {
		for i := range c.signals {
			if c.signals[i].Name == SignalExpansion {
				c.signals[i].Weight = 0
			}
		}
	}
	var f fused
	if cfg.Fusion == FusionRRF {
		f = fuseRRF(c.signals, cfg.RRFK)
	} else {
		f = fuseWeighted(c.signals, cfg.Normalize == NormalizeMax)
	}

	if cfg.Signals.Context && cfg.ContextSeeds > 0 {
		if err := p.spreadContext(ctx, c, f); err != nil {
			return nil, err
		}
	}

	if cfg.Signals.Speaker && cfg.SpeakerFocus > 0 && cfg.SpeakerFocus < 1 {
		if sp, all := focusSpeaker(a.Words, c.episodes); sp != "" {
			applySpeakerFocus(c, f, sp, all, cfg.SpeakerFocus)
		}
	}

	if cfg.OtherSubject > 0 && cfg.OtherSubject < 1 && c.self != nil {
		applyOtherSubject(c, f, a.Terms, c.self, cfg.OtherSubject)
	}
	if cfg.AnswerBoost > 0 {
		applyAnswerBoost(c, f, cfg.AnswerBoost)
	}
	if cfg.PathFactor > 0 && cfg.PathFactor < 1 {
		applyPathFactor(c, f, cfg.PathFactor)
	}
	if cfg.Signals.Graph && cfg.EndedShare > 0 {
		applyEndedShare(c, f, at, cfg.EndedShare, a.Words)
	}
	if cfg.EndingCue > 0 && asksStill(a.Words) {
		applyEndingCue(c, f, a.Terms, cfg.EndingCue)
	}
	if cfg.ChangeCue > 0 && cfg.ChangeCueTop > 0 && c.self != nil && (asksCurrent(a.Words) || asksPresent(a.Words)) {
		applyChangeCue(c, f, cfg.ChangeCueTop, cfg.ChangeCue)
	}
	if cfg.CorrectionCue > 0 {
		applyCorrectionCue(c, f, a.Terms, cfg.CorrectionCue)
	}
	if cfg.CurrentRecency > 0 && cfg.CurrentRecency <= 1 && asksCurrent(a.Words) {
		applyRecency(c, f, cfg.CurrentRecency)
	} else if cfg.PresentRecency > 0 && cfg.PresentRecency <= 1 && asksPresent(a.Words) {
		applyRecency(c, f, cfg.PresentRecency)
	}
	if cfg.AssistantFactor > 0 && cfg.AssistantFactor < 1 && !asksAssistant(a.Words) {
		applyAssistantFactor(c, f, cfg.AssistantFactor)
	}
	var superseded map[string]string
	if cfg.SupersedeTop > 0 && len(a.Spans) == 0 && !asksStill(a.Words) && !asksPast(a.Words) {
		parse := p.temporal()
		superseded = applySupersession(c, f, a.Terms, cfg.SupersedeTop, at, func(w string) bool {
			// A bare month is a time only after "in".
			return len(parse(w, now)) > 0 || len(parse("in "+w, now)) > 0
		})
	}

	applyProfileRerank(c, f, req.personal, cfg.Profile)
	applyProfileEvidence(c, f, req.personal, cfg.Profile) // profile_evidence.go
	pst.apply(f)
	p.policyReweight(req, c, f)
	stage(StageFuse)
	// The sources attachSources will show, so that a turn a fact merged
	// from but does not show is not taken as already covered.
	shownSources := func(r Result) []string {
		if r.Fact != nil {
			return factSources(r.Fact.SourceEpisodeIDs, f.Scores, cfg.MaxFactSources)
		}
		return sourceIDs(r)
	}
	// The threshold applies to the score returned, after the turn
	// evidence; every candidate lends its score to its turn before that.
	unbounded := req
	unbounded.Threshold = 0
	ordered := p.policyResults(req, p.filter(unbounded, at, c, f))
	ordered = addTurnEvidence(ordered, turnShare(cfg.TurnEvidence, c), shownSources, f) // turns.go
	ordered = keepBelow(ordered, superseded, f)                                         // supersede.go
	ordered = atLeast(ordered, req.Threshold)
	ordered = currentFirst(ordered, at, req.IncludeInvalidated)
	ordered = mmr(ordered, req.TopK, cfg.MMR) // mmr.go
	pool := ordered[:min(len(ordered), 5*req.TopK)]
	var shown func(Result) []string
	if cfg.SourceDiversity {
		shown = shownSources
	}
	ordered = diversify(ordered, req.TopK, cfg.DuplicateSimilarity, shown, deferral{Facts: cfg.DeferFacts, Repeats: cfg.TurnSlots,
		// A fact about the entity the query names by role, with the
		// query's topic words, is the answer; its turn being shown
		// does not make it redundant.
		Keep: func(r Result) bool { return r.Fact != nil && f.Details[r.ID][SignalRelation] > relationBase }})
	stage(StageRank)
	if err := p.attachSources(ctx, req.Scope, ordered, f.Scores, cfg.MaxFactSources, p.sourcePolicy(req)); err != nil {
		return nil, err
	}
	stage(StageSources)
	if a.Aggregate {
		ordered = spreadTop(ordered, cfg.SpreadTop, cfg.ContextWindow)
	}
	resp := &Response{Results: make([]Result, 0, len(ordered)), Entities: c.entities, Profile: req.personal.entries, Intent: intent}
	for _, r := range ordered {
		pointIntoEpisode(&r, passages)
		if req.Explain {
			r.ScoreDetails = explain(c.signals, f, r.ID)
		}
		resp.Results = append(resp.Results, r)
	}
	resp.Context = withAboutUser(resp.Profile, formatContext(resp.Results, cfg.ContextChars), cfg.ContextChars)
	if req.Explain {
		g := topicGini(pool, resp.Results)
		resp.TopicGini = &g
	}
	if err := p.trackUsage(ctx, req, resp.Results); err != nil {
		return nil, err
	}
	stage(StageContext)
	return resp, nil
}

// temporal returns the time-expression parser in use.
func (p *Pipeline) temporal() func(string, time.Time) []TimeSpan {
	if p.Temporal != nil {
		return p.Temporal
	}
	return parseTime
}

// requestKinds checks the requested kinds; none means facts and episodes.
func requestKinds(kinds []lore.DocKind) ([]lore.DocKind, error) {
	if len(kinds) == 0 {
		return []lore.DocKind{lore.KindFact, lore.KindEpisode}, nil
	}
	var out []lore.DocKind
	for _, k := range kinds {
		if k != lore.KindFact && k != lore.KindEpisode {
			return nil, lore.Errorf(lore.EINVALID, "types: unknown type %q (want fact or episode)", k)
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

// candidateSet is what the candidate stage found and hydration loaded.
type candidateSet struct {
	signals  []signal
	kind     map[string]lore.DocKind
	facts    map[string]*lore.Fact
	episodes map[string]*lore.Episode
	entities []*lore.Entity  // linked from the query, for the response
	mentions *mentions       // the relation stage's, scored after hydration
	answers  map[string]bool // facts stating the attribute asked of a resolved entity
	path     []string        // relation facts walked to an entity whose attribute is asked
	self     *lore.Entity    // the user's entity when the query asks about the user alone
	resolved []string        // the ids of the entities the query's roles and names resolved to
}

func (c *candidateSet) add(s signal, hits []lore.IndexHit) {
	for _, h := range hits {
		if _, ok := s.Scores[h.ID]; ok && s.Scores[h.ID] >= h.Score {
			continue
		}
		s.Scores[h.ID] = h.Score
		c.kind[h.ID] = h.Kind
	}
}

// candidates gathers the signals: BM25 and dense in parallel with entity
// linking, then the graph walk and the expansion search, which need the
// linked entities.
func (p *Pipeline) candidates(ctx context.Context, req Request, kinds []lore.DocKind, a analysis, at asOf) (*candidateSet, error) {
	cfg := p.Config
	c := &candidateSet{kind: map[string]lore.DocKind{}, facts: map[string]*lore.Fact{}, episodes: map[string]*lore.Episode{}, entities: []*lore.Entity{}}
	base := lore.IndexQuery{Scope: req.Scope, Kinds: kinds, Since: req.Since}
	// The index dates facts by LastSeen, an episode by when it was said; the
	// upper bound is applied after hydration with the fact's whole span, so
	// it is only pushed down when every candidate is an episode.
	if len(kinds) == 1 && kinds[0] == lore.KindEpisode {
		base.Until = req.Until
	}

	var (
		wg                  sync.WaitGroup
		textHits, vecHits   []lore.IndexHit
		textErr, vecErr     error
		textQuery           = strings.Join(a.Terms, " ")
		wantText, wantDense = cfg.Signals.BM25, cfg.Signals.Dense && p.Embedder != nil
	)
	if textQuery == "" {
		textQuery = strings.Join(a.Words, " ")
	}
	if wantText && textQuery != "" {
		wg.Go(func() {
			q := base
			q.Text, q.Limit = textQuery, max(cfg.TextPool, req.TopK)
			textHits, textErr = p.Index.SearchText(ctx, q)
		})
	}
	if wantDense {
		wg.Go(func() {
			text := req.Query
			if cfg.Signals.Speaker {
				speakers, err := p.Graph.Speakers(ctx, req.Scope)
				if err != nil {
					vecErr = fmt.Errorf("retrieve: speakers: %w", err)
					return
				}
				text = withoutSpeakers(text, a.Words, speakers)
			}
			vs, err := p.embedQuery(ctx, text, req.personal)
			if err != nil {
				vecErr = fmt.Errorf("retrieve: embed query: %w", err)
				return
			}
			if len(vs) != 1 {
				vecErr = fmt.Errorf("retrieve: embed query: got %d vectors, want 1", len(vs))
				return
			}
			q := base
			q.Vector, q.Limit = vs[0], max(cfg.VectorPool, req.TopK)
			vecHits, vecErr = p.Index.SearchVector(ctx, q)
			if vecErr != nil {
				vecErr = fmt.Errorf("retrieve: vector search: %w", vecErr)
			}
		})
	}

	var linked, connected []*lore.Entity
	var linkErr error
	var related walkResult
	if (cfg.Signals.Graph || cfg.Signals.EntityExpansion) && len(a.NGrams) > 0 {
		linked, connected, linkErr = p.link(ctx, req.Scope, a)
		if linkErr == nil && cfg.Signals.Graph && cfg.Weights.Relation > 0 {
			related, linkErr = p.relation(ctx, req, kinds, a, linked, at)
		}
	}
	wg.Wait()
	if textErr != nil {
		return nil, fmt.Errorf("retrieve: text search: %w", textErr)
	}
	if vecErr != nil {
		return nil, vecErr
	}
	if linkErr != nil {
		return nil, linkErr
	}
	c.entities = append(c.entities, linked...)

	if wantText {
		s := signal{Name: SignalBM25, Weight: cfg.Weights.BM25, Scores: map[string]float64{}}
		c.add(s, textHits)
		c.signals = append(c.signals, s)
	}
	if wantDense {
		s := signal{Name: SignalDense, Weight: cfg.Weights.Dense, Scores: map[string]float64{}, Normalize: cfg.DenseNormalize}
		c.add(s, vecHits)
		c.signals = append(c.signals, s)
	}
	// The expansion search and the graph walk both need the linked
	// entities and not each other.
	var (
		expHits        []lore.IndexHit
		expErr, walkEr error
		walked         walkResult
		terms          []string
	)
	if cfg.Signals.EntityExpansion {
		terms = expansionTerms(a.Words, linked, connected, cfg.MaxExpansionTerms)
	}
	if len(terms) > 0 {
		wg.Go(func() {
			q := base
			q.Text, q.Limit = strings.Join(terms, " "), max(cfg.TextPool, req.TopK)
			expHits, expErr = p.Index.SearchText(ctx, q)
		})
	}
	if cfg.Signals.Graph && len(linked) > 0 {
		wg.Go(func() { walked, walkEr = p.walk(ctx, req, kinds, linked) })
	}
	wg.Wait()
	if expErr != nil {
		return nil, fmt.Errorf("retrieve: expansion search: %w", expErr)
	}
	if walkEr != nil {
		return nil, walkEr
	}
	if len(terms) > 0 {
		s := signal{Name: SignalExpansion, Weight: cfg.Weights.Expansion, Scores: map[string]float64{}}
		c.add(s, expHits)
		c.signals = append(c.signals, s)
	}
	if cfg.Signals.Graph && len(linked) > 0 {
		for id, k := range walked.kind {
			c.kind[id] = k
		}
		for _, f := range walked.facts {
			c.facts[f.ID] = f
		}
		c.signals = append(c.signals, walked.signal)
	}
	if related.signal.Scores != nil {
		c.mentions = related.mentions
		c.answers = related.answers
		c.path = related.path
		c.self = related.self
		c.resolved = related.resolved
		for id, k := range related.kind {
			c.kind[id] = k
		}
		for _, f := range related.facts {
			c.facts[f.ID] = f
		}
		c.signals = append(c.signals, related.signal)
	}
	return c, nil
}

// relation resolves the query's role words and possessives to entities
// (relate) and scores those entities' facts, the user's own facts on the
// query's topic for a first-person query (Config.RelationSelf), and their
// source turns (relationSignal).
func (p *Pipeline) relation(ctx context.Context, req Request, kinds []lore.DocKind, a analysis, linked []*lore.Entity, at asOf) (walkResult, error) {
	r, err := p.relate(ctx, req, a, linked, at)
	if err != nil || (len(r.entities) == 0 && r.self == nil) {
		return walkResult{}, err
	}
	facts, err := p.relationFacts(ctx, req.Scope, r.entities, max(p.Config.GraphPool, req.TopK))
	if err != nil {
		return walkResult{}, err
	}
	var self []*lore.Fact
	if r.self != nil {
		if self, err = p.relationFacts(ctx, req.Scope, []*lore.Entity{r.self}, max(p.Config.GraphPool, req.TopK)); err != nil {
			return walkResult{}, err
		}
	}
	out := relationSignal(r, facts, self, a, kinds, p.Config.Weights.Relation, at)
	for _, e := range r.entities {
		out.resolved = append(out.resolved, e.ID)
	}
	if r.self != nil && len(r.entities) == 0 && len(r.used) == 0 && !slices.ContainsFunc(a.Words, isRoleWord) && !namesSomeone(req.Query) {
		out.self = r.self
	}
	if !slices.Contains(kinds, lore.KindEpisode) {
		return out, nil
	}
	// The turns that name a resolved entity, scored after hydration
	// (scoreMentions): the extractor may have missed the fact they state.
	if out.mentions = newMentions(r, a, out.signal.Scores); out.mentions != nil {
		var text []string
		for _, n := range out.mentions.names {
			text = append(text, n...)
		}
		text = append(text, out.mentions.topic...)
		hits, err := p.Index.SearchText(ctx, lore.IndexQuery{Scope: req.Scope, Kinds: []lore.DocKind{lore.KindEpisode}, Since: req.Since,
			Text: strings.Join(text, " "), Limit: max(p.Config.TextPool, req.TopK)})
		if err != nil {
			return walkResult{}, fmt.Errorf("retrieve: relation mentions: %w", err)
		}
		for _, h := range hits {
			if _, ok := out.kind[h.ID]; !ok {
				out.kind[h.ID] = lore.KindEpisode
			}
		}
	}
	return out, nil
}

// link finds the scope's entities that the query's n-grams name and, for a
// first-person query, the user's own entity and most connected entities.
func (p *Pipeline) link(ctx context.Context, scope lore.Scope, a analysis) (linked, connected []*lore.Entity, err error) {
	cfg := p.Config
	ns := scope.Namespace()
	found, err := p.Graph.FindEntities(ctx, lore.EntityFilter{Scope: ns, Names: a.NGrams, Limit: 4 * max(cfg.MaxLinkedEntities, 1)})
	if err != nil {
		return nil, nil, fmt.Errorf("retrieve: link entities: %w", err)
	}
	linked = linkEntities(a.NGrams, found, cfg.MaxLinkedEntities)
	if !a.FirstPerson || cfg.UserEntities <= 0 {
		return linked, nil, nil
	}
	// Ordered by mentions: the most connected first. The user's own entity
	// is among them in any conversation long enough for this to matter.
	top, err := p.Graph.FindEntities(ctx, lore.EntityFilter{Scope: ns, Limit: 4 * cfg.UserEntities})
	if err != nil {
		return nil, nil, fmt.Errorf("retrieve: user entities: %w", err)
	}
	for _, e := range top {
		if e.Type == lore.UserEntityType && !slices.ContainsFunc(linked, func(l *lore.Entity) bool { return l.ID == e.ID }) {
			linked = append(linked, e)
		}
	}
	for _, e := range top {
		if len(connected) == cfg.UserEntities {
			break
		}
		if e.Type != lore.UserEntityType {
			connected = append(connected, e)
		}
	}
	return linked, connected, nil
}

// walkResult is what the graph walk found: its signal, the facts it
// reached (already loaded) and the kind of every id it scored.
type walkResult struct {
	signal signal
	facts  []*lore.Fact
	kind   map[string]lore.DocKind
	// answers are the facts whose predicate is the attribute the query
	// asks for, of an entity it resolved (relation stage only).
	answers map[string]bool
	// mentions, for the relation stage, scores the candidate turns that
	// name a resolved entity once they are loaded.
	mentions *mentions
	// self is the user's entity when the query asks about the user alone
	// (relation stage only).
	self *lore.Entity
	// resolved are the ids of the entities the relation stage resolved.
	resolved []string
	// path are the relation facts walked to reach the resolved entities
	// when the query asks an attribute of them, not who they are.
	path []string
}

// walk scores the facts around the linked entities. When episodes are
// wanted, each source episode of a reached fact inherits half its best
// fact's score, so the turn that said a related fact surfaces even when its
// words differ from the query's.
func (p *Pipeline) walk(ctx context.Context, req Request, kinds []lore.DocKind, linked []*lore.Entity) (walkResult, error) {
	cfg := p.Config
	out := walkResult{
		signal: signal{Name: SignalGraph, Weight: cfg.Weights.Graph, Scores: map[string]float64{}, Absolute: true},
		kind:   map[string]lore.DocKind{},
	}
	seeds := make([]string, 0, len(linked))
	for _, e := range linked {
		// The user's entity, and any hub such as the other person of a
		// conversation, touches nearly every fact; walking from it would
		// rank all of them alike.
		if e.Type != lore.UserEntityType && (cfg.HubMentions <= 0 || e.Mentions <= cfg.HubMentions) {
			seeds = append(seeds, e.ID)
		}
	}
	if len(seeds) == 0 {
		return out, nil
	}
	hits, err := p.neighborhood(ctx, req, seeds)
	if err != nil {
		return out, err
	}
	scores := graphScores(hits, req.QueryTime, cfg.RecencyHalfLifeDays)
	wantFacts := slices.Contains(kinds, lore.KindFact)
	wantEpisodes := slices.Contains(kinds, lore.KindEpisode)
	s := out.signal.Scores
	for _, h := range hits {
		f := h.Fact
		if f == nil || !req.Scope.Contains(f.Scope) {
			continue
		}
		if wantFacts {
			if _, dup := out.kind[f.ID]; !dup {
				out.facts = append(out.facts, f)
			}
			out.kind[f.ID] = lore.KindFact
			s[f.ID] = scores[f.ID]
		}
		if wantEpisodes {
			for _, epID := range f.SourceEpisodeIDs {
				if v := scores[f.ID] / 2; v > s[epID] {
					s[epID] = v
					out.kind[epID] = lore.KindEpisode
				}
			}
		}
	}
	return out, nil
}

// neighborhood walks one hop from the seeds, then, when two hops are
// configured, one more from a few bridge entities at the other ends of
// those facts. Walking the second hop in one call would load every fact of
// every neighbour, hubs such as the user included; bridges are the
// neighbours that are neither the user nor hubs (HubMentions), nearest
// (most recent) first, at most MaxBridgeEntities.
func (p *Pipeline) neighborhood(ctx context.Context, req Request, seeds []string) ([]lore.GraphHit, error) {
	cfg := p.Config
	pool := max(cfg.GraphPool, req.TopK)
	hits, err := p.Graph.Neighborhood(ctx, lore.NeighborhoodQuery{
		Scope: req.Scope, SeedIDs: seeds, MaxHops: 1, Limit: pool, IncludeInvalidated: req.IncludeInvalidated,
	})
	if err != nil {
		return nil, fmt.Errorf("retrieve: graph walk: %w", err)
	}
	if cfg.MaxHops < 2 || len(hits) >= pool || cfg.MaxBridgeEntities <= 0 {
		return hits, nil
	}
	next, seedOf := frontier(hits, seeds)
	if len(next) == 0 {
		return hits, nil
	}
	next = next[:min(len(next), 4*cfg.MaxBridgeEntities)]
	ents, err := p.Graph.FindEntities(ctx, lore.EntityFilter{Scope: req.Scope.Namespace(), IDs: next})
	if err != nil {
		return nil, fmt.Errorf("retrieve: graph walk: bridges: %w", err)
	}
	bridges := pickBridges(next, ents, cfg.HubMentions, cfg.MaxBridgeEntities)
	if len(bridges) == 0 {
		return hits, nil
	}
	more, err := p.Graph.Neighborhood(ctx, lore.NeighborhoodQuery{
		Scope: req.Scope, SeedIDs: bridges, MaxHops: 1, Limit: pool, IncludeInvalidated: req.IncludeInvalidated,
	})
	if err != nil {
		return nil, fmt.Errorf("retrieve: graph walk: second hop: %w", err)
	}
	return appendSecondHop(hits, more, seedOf, pool), nil
}

// frontier returns the entities at the far ends of one-hop hits, in hit
// order, and for each the seed it was reached from.
func frontier(hits []lore.GraphHit, seeds []string) ([]string, map[string]string) {
	isSeed := map[string]bool{}
	for _, s := range seeds {
		isSeed[s] = true
	}
	seedOf := map[string]string{}
	var next []string
	for _, h := range hits {
		if h.Fact == nil {
			continue
		}
		for _, end := range []string{h.Fact.SubjectID, h.Fact.ObjectID} {
			if end == "" || isSeed[end] {
				continue
			}
			if _, ok := seedOf[end]; !ok {
				seedOf[end] = h.SeedID
				next = append(next, end)
			}
		}
	}
	return next, seedOf
}

// pickBridges keeps, in the order of next, the entities that are neither
// the user nor hubs (more than hubMentions mentions; 0 means no bound), at
// most limit. Ids the store did not return are skipped.
func pickBridges(next []string, ents []*lore.Entity, hubMentions, limit int) []string {
	byID := make(map[string]*lore.Entity, len(ents))
	for _, e := range ents {
		byID[e.ID] = e
	}
	var out []string
	for _, id := range next {
		e := byID[id]
		if e == nil || e.Type == lore.UserEntityType || (hubMentions > 0 && e.Mentions > hubMentions) {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, id)
	}
	return out
}

// appendSecondHop adds the facts found from bridges as two-hop hits of the
// seed each bridge was reached from, skipping facts already hit, up to
// limit hits in all.
func appendSecondHop(hits, more []lore.GraphHit, seedOf map[string]string, limit int) []lore.GraphHit {
	seen := make(map[string]bool, len(hits))
	for _, h := range hits {
		if h.Fact != nil {
			seen[h.Fact.ID] = true
		}
	}
	for _, h := range more {
		if len(hits) >= limit {
			break
		}
		if h.Fact == nil || seen[h.Fact.ID] {
			continue
		}
		seen[h.Fact.ID] = true
		hits = append(hits, lore.GraphHit{Fact: h.Fact, Hops: 2, SeedID: seedOf[h.SeedID]})
	}
	return hits
}

// hydrate loads every candidate's record that is not loaded yet. Ids the
// index knows but the store does not (deleted since) simply stay unloaded
// and are dropped by filter.
func (p *Pipeline) hydrate(ctx context.Context, scope lore.Scope, c *candidateSet) error {
	var factIDs, epIDs []string
	for id, k := range c.kind {
		switch {
		case k == lore.KindFact && c.facts[id] == nil:
			factIDs = append(factIDs, id)
		case k == lore.KindEpisode && c.episodes[id] == nil:
			epIDs = append(epIDs, id)
		}
	}
	// Sorted so the store sees the same query for the same candidates.
	sort.Strings(factIDs)
	sort.Strings(epIDs)
	var (
		wg          sync.WaitGroup
		facts       []*lore.Fact
		eps         []*lore.Episode
		fErr, epErr error
	)
	if len(factIDs) > 0 {
		wg.Go(func() {
			facts, fErr = p.Graph.FindFacts(ctx, lore.FactFilter{Scope: scope, IDs: factIDs, IncludeInvalidated: true})
		})
	}
	if len(epIDs) > 0 {
		wg.Go(func() {
			eps, epErr = p.Graph.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, IDs: epIDs})
		})
	}
	wg.Wait()
	if fErr != nil {
		return fmt.Errorf("retrieve: load facts: %w", fErr)
	}
	if epErr != nil {
		return fmt.Errorf("retrieve: load episodes: %w", epErr)
	}
	for _, f := range facts {
		c.facts[f.ID] = f
	}
	for _, ep := range eps {
		c.episodes[ep.ID] = ep
	}
	return nil
}

// filter turns the fused candidates into results in score order, keeping
// only loaded records of the request's scope, kinds, time range, metadata
// filter, validity and threshold.
func (p *Pipeline) filter(req Request, at asOf, c *candidateSet, f fused) []Result {
	var out []Result
	for _, id := range ranked(f.Scores) {
		score := f.Scores[id]
		if score < req.Threshold {
			continue
		}
		switch c.kind[id] {
		case lore.KindFact:
			fact := c.facts[id]
			if fact == nil || !req.Scope.Contains(fact.Scope) || !req.Filter.Match(fact.Metadata) {
				continue
			}
			// An as-of read never shows what became true later; ended
			// facts show only when asked for.
			if !at.started(fact) {
				continue
			}
			if !req.IncludeInvalidated && !at.valid(fact) {
				continue
			}
			start, end := factSpan(fact)
			if !overlaps(start, end, req.Since, req.Until) {
				continue
			}
			out = append(out, Result{ID: id, Type: lore.KindFact, Memory: fact.Text, Score: score, Fact: fact})
		case lore.KindEpisode:
			ep := c.episodes[id]
			if ep == nil || !req.Scope.Contains(ep.Scope) || !req.Filter.Match(ep.Metadata) {
				continue
			}
			if !at.said(ep) || !overlaps(ep.OccurredAt, ep.OccurredAt, req.Since, req.Until) {
				continue
			}
			out = append(out, Result{ID: id, Type: lore.KindEpisode, Memory: ep.Content, Score: score, Episode: ep})
		}
	}
	return out
}

// factSpan is the world time a fact covers: from when it became true (or
// was first said) to when it was last said.
func factSpan(f *lore.Fact) (time.Time, time.Time) {
	start, end := f.FirstSeen, f.LastSeen
	if f.ValidAt != nil && (start.IsZero() || f.ValidAt.Before(start)) {
		start = *f.ValidAt
	}
	if end.IsZero() || end.Before(start) {
		end = start
	}
	return start, end
}

// overlaps reports whether [start, end] meets [since, until).
func overlaps(start, end time.Time, since, until *time.Time) bool {
	if since != nil && end.Before(*since) {
		return false
	}
	if until != nil && !start.Before(*until) {
		return false
	}
	return true
}

// attachSources fills each result's sources: an episode itself, or a
// fact's source episodes, at most maxFact of them (0: all) chosen by
// factSources. Source episodes outside the scope, or that allow (when
// set) rejects, are never shown.
func (p *Pipeline) attachSources(ctx context.Context, scope lore.Scope, results []Result, scores map[string]float64, maxFact int, allow func(*lore.Episode) bool) error {
	var ids []string
	chosen := make([][]string, len(results))
	for i, r := range results {
		if r.Fact != nil {
			chosen[i] = factSources(r.Fact.SourceEpisodeIDs, scores, maxFact)
			ids = append(ids, chosen[i]...)
		}
	}
	byID := map[string]*lore.Episode{}
	if len(ids) > 0 {
		slices.Sort(ids)
		ids = slices.Compact(ids)
		eps, err := p.Graph.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, IDs: ids})
		if err != nil {
			return fmt.Errorf("retrieve: load sources: %w", err)
		}
		for _, ep := range eps {
			byID[ep.ID] = ep
		}
	}
	for i := range results {
		r := &results[i]
		r.Sources = []Source{}
		switch {
		case r.Episode != nil:
			r.Sources = append(r.Sources, sourceOf(r.Episode))
		case r.Fact != nil:
			for _, id := range chosen[i] {
				if ep := byID[id]; ep != nil && (allow == nil || allow(ep)) {
					r.Sources = append(r.Sources, sourceOf(ep))
				}
			}
		}
	}
	return nil
}

// factSources picks at most n (0: all) of a fact's source episodes: those
// the query scored, best first, then the rest latest first (sources are
// kept in the order they were merged). A fact stated in thirty turns then
// points to the turns that matter for this query, not to all thirty.
func factSources(ids []string, scores map[string]float64, n int) []string {
	if n <= 0 || len(ids) <= n {
		return ids
	}
	out := make([]string, 0, len(ids))
	for i := len(ids) - 1; i >= 0; i-- {
		out = append(out, ids[i])
	}
	sort.SliceStable(out, func(i, j int) bool { return scores[out[i]] > scores[out[j]] })
	return out[:n]
}

func sourceOf(ep *lore.Episode) Source {
	return Source{EpisodeID: ep.ID, SourceID: ep.SourceID, OccurredAt: ep.OccurredAt, Content: ep.Content}
}

// explain collects a result's per-signal scores (normalised as fused) and
// its fused score.
func explain(signals []signal, f fused, id string) map[string]float64 {
	out := map[string]float64{SignalFused: f.Scores[id]}
	for _, s := range signals {
		out[s.Name] = f.Details[id][s.Name]
	}
	// The context share and the speaker factor apply after fusion; they
	// are not signals.
	for _, name := range []string{SignalContext, SignalTurn, SignalSpeaker, SignalAssistant, SignalRecency, SignalAnswer, SignalEnded, SignalProfile, SignalProfileEvidence, SignalRelevance, SignalSuccessPenalty, SignalPolicy,
		SignalOtherSubject, SignalPath, SignalEndingCue, SignalChangeCue, SignalCorrectionCue, SignalSupersedes, SignalSuperseded,
		SignalPersonal, SignalFrequency, SignalSuccess} { // the last three as factors (Personal.Multiply)
		if v, ok := f.Details[id][name]; ok {
			out[name] = v
		}
	}
	return out
}
