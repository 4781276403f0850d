package retrieve

import (
	"context"
	"slices"

	"github.com/lore-memory/lore"
)

// SignalContext names the bonus a turn receives from a strong neighbouring
// turn, in Result.ScoreDetails.
const SignalContext = "context"

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
	if len(before) > 0 && !lore.Replies(before[0], ep) {
		before = nil
	}
	if len(after) > 0 && !lore.Replies(after[0], ep) {
		after = nil
	}
	return before, after
}
