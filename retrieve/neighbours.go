package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// SignalContext names the bonus a turn receives from a strong neighbouring
// turn, in Result.ScoreDetails.
const SignalContext = "context"

// neighbourScan bounds the episodes read around one seed episode; when a
// burst of more episodes than this shares the window the seed's neighbours
// are not looked for.
const neighbourScan = 64

// neighbourhoodOf is a seed episode's turns before and after it in its
// conversation, nearest first.
type neighbourhoodOf struct {
	seed          string
	before, after []*lore.Episode
}

// spreadContext gives the turns near the best episode hits a share of
// their score. In dialogue the words of a question ("got any tips for
// adoption?") are in one turn and the answer, which shares none of them, in
// the next or the one after; the question's own context is often in the
// turn before. The seeds are the ContextSeeds best loaded episodes; a turn d
// places after a seed gains ContextNext·ContextDecay^(d-1) of the seed's
// fused score (ContextPrev before it), up to ContextSpan turns each side,
// the best such share when it is near several seeds.
func (p *Pipeline) spreadContext(ctx context.Context, c *candidateSet, f fused) error {
	cfg := p.Config
	var seeds []*lore.Episode
	for _, id := range ranked(f.Scores) {
		if len(seeds) == cfg.ContextSeeds {
			break
		}
		if ep := c.episodes[id]; ep != nil && c.kind[id] == lore.KindEpisode {
			seeds = append(seeds, ep)
		}
	}
	if len(seeds) == 0 {
		return nil
	}
	befores, afters, err := AroundAll(ctx, p.Graph, seeds, cfg.ContextWindow, max(cfg.ContextSpan, 1))
	if err != nil {
		return err
	}
	found := make([]neighbourhoodOf, len(seeds))
	for i, ep := range seeds {
		found[i].seed = ep.ID
		found[i].before, found[i].after = replyRun(ep, befores[i], afters[i])
	}
	w := cfg.Weights
	for id, bonus := range contextBonus(found, f.Scores, w.ContextPrev, w.ContextNext, cfg.ContextDecay) {
		f.Scores[id] += bonus
		detail(f.Details, id)[SignalContext] = bonus
	}
	for _, n := range found {
		for _, ep := range append(slices.Clone(n.before), n.after...) {
			if c.episodes[ep.ID] == nil {
				c.episodes[ep.ID] = ep
				c.kind[ep.ID] = lore.KindEpisode
			}
		}
	}
	return nil
}

// contextBonus is the pure part of spreadContext: each neighbour's best
// share of a seed's score, the share shrinking by decay per turn of
// distance.
func contextBonus(found []neighbourhoodOf, scores map[string]float64, prevWeight, nextWeight, decay float64) map[string]float64 {
	out := map[string]float64{}
	give := func(eps []*lore.Episode, v float64) {
		for _, ep := range eps {
			if v > out[ep.ID] {
				out[ep.ID] = v
			}
			v *= decay
		}
	}
	for _, n := range found {
		s := scores[n.seed]
		give(n.before, prevWeight*s)
		give(n.after, nextWeight*s)
	}
	return out
}

// replyRun keeps the turns before and after ep only where the one right
// next to it is the other side of the dialogue.
func replyRun(ep *lore.Episode, before, after []*lore.Episode) ([]*lore.Episode, []*lore.Episode) {
	if len(before) > 0 && !replies(before[0], ep) {
		before = nil
	}
	if len(after) > 0 && !replies(after[0], ep) {
		after = nil
	}
	return before, after
}

// EpisodeFinder is what neighbour lookups need of a store.
type EpisodeFinder interface {
	FindEpisodes(ctx context.Context, filter lore.EpisodeFilter) ([]*lore.Episode, error)
}

// Around returns up to span episodes just before and just after ep in its
// own scope, nearest first, in the store's order (occurrence time, then
// storage time), looking no further than window either side: farther turns
// belong to another conversation. When more than a few dozen episodes share
// the window, ep's neighbours are not looked for.
func Around(ctx context.Context, st EpisodeFinder, ep *lore.Episode, window time.Duration, span int) (before, after []*lore.Episode, err error) {
	if window <= 0 || ep.OccurredAt.IsZero() {
		return nil, nil, nil
	}
	since, until := ep.OccurredAt.Add(-window), ep.OccurredAt.Add(window)
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: ep.Scope, Since: &since, Until: &until, Limit: neighbourScan})
	if err != nil {
		return nil, nil, fmt.Errorf("retrieve: neighbouring turns: %w", err)
	}
	before, after = pickAround(eps, ep, span)
	return before, after, nil
}

// pickAround returns up to span episodes of eps just before and just after
// ep, nearest first; none when ep is not in eps.
func pickAround(eps []*lore.Episode, ep *lore.Episode, span int) (before, after []*lore.Episode) {
	i := slices.IndexFunc(eps, func(e *lore.Episode) bool { return e.ID == ep.ID })
	if i < 0 {
		return nil, nil
	}
	for j := i - 1; j >= 0 && i-j <= span && eps[j].Scope == ep.Scope; j-- {
		before = append(before, eps[j])
	}
	for j := i + 1; j < len(eps) && j-i <= span && eps[j].Scope == ep.Scope; j++ {
		after = append(after, eps[j])
	}
	return before, after
}

// replies reports whether two adjacent turns are two sides of a dialogue:
// same scope, different speaker or role. Two turns of one speaker in a row
// (as when only the user's side is stored) are separate statements, not a
// question and its answer.
func replies(a, b *lore.Episode) bool {
	return a.Scope == b.Scope && (a.Role != b.Role || !strings.EqualFold(a.Speaker, b.Speaker))
}
