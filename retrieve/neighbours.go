package retrieve

import (
	"context"
	"fmt"
	"strings"
	"sync"
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

// neighbourhoodOf is a seed episode's previous and next turn in its
// conversation (either may be nil).
type neighbourhoodOf struct {
	seed       string
	prev, next *lore.Episode
}

// spreadContext gives the turns next to the best episode hits a share of
// their score. In dialogue the words of a question ("got any tips for
// adoption?") are in one turn and the answer, which shares none of them, in
// the next; the question's own context is often in the turn before. The
// seeds are the ContextSeeds best loaded episodes; a neighbour gains
// ContextNext (the turn after) or ContextPrev (the turn before) times the
// seed's fused score, the best such share when it neighbours several.
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
	found := make([]neighbourhoodOf, len(seeds))
	errs := make([]error, len(seeds))
	var wg sync.WaitGroup
	for i, ep := range seeds {
		wg.Go(func() {
			found[i].seed = ep.ID
			found[i].prev, found[i].next, errs[i] = p.adjacent(ctx, ep, cfg.ContextWindow)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for id, bonus := range contextBonus(found, f.Scores, cfg.Weights.ContextPrev, cfg.Weights.ContextNext) {
		f.Scores[id] += bonus
		detail(f.Details, id)[SignalContext] = bonus
	}
	for _, n := range found {
		for _, ep := range []*lore.Episode{n.prev, n.next} {
			if ep != nil && c.episodes[ep.ID] == nil {
				c.episodes[ep.ID] = ep
				c.kind[ep.ID] = lore.KindEpisode
			}
		}
	}
	return nil
}

// contextBonus is the pure part of spreadContext: each neighbour's best
// share of a seed's score.
func contextBonus(found []neighbourhoodOf, scores map[string]float64, prevWeight, nextWeight float64) map[string]float64 {
	out := map[string]float64{}
	give := func(ep *lore.Episode, v float64) {
		if ep != nil && v > out[ep.ID] {
			out[ep.ID] = v
		}
	}
	for _, n := range found {
		s := scores[n.seed]
		give(n.prev, prevWeight*s)
		give(n.next, nextWeight*s)
	}
	return out
}

// adjacent returns the episodes just before and just after ep in its own
// scope, in the store's order (occurrence time, then storage time), looking
// no further than window either side: farther turns belong to another
// conversation. A neighbour counts only when it is the other side of the
// dialogue (see replies).
func (p *Pipeline) adjacent(ctx context.Context, ep *lore.Episode, window time.Duration) (prev, next *lore.Episode, err error) {
	if window <= 0 || ep.OccurredAt.IsZero() {
		return nil, nil, nil
	}
	since, until := ep.OccurredAt.Add(-window), ep.OccurredAt.Add(window)
	eps, err := p.Graph.FindEpisodes(ctx, lore.EpisodeFilter{Scope: ep.Scope, Since: &since, Until: &until, Limit: neighbourScan})
	if err != nil {
		return nil, nil, fmt.Errorf("retrieve: neighbouring turns: %w", err)
	}
	for i, e := range eps {
		if e.ID != ep.ID {
			continue
		}
		if i > 0 && replies(eps[i-1], ep) {
			prev = eps[i-1]
		}
		if i+1 < len(eps) && replies(eps[i+1], ep) {
			next = eps[i+1]
		}
		break
	}
	return prev, next, nil
}

// replies reports whether two adjacent turns are two sides of a dialogue:
// same scope, different speaker or role. Two turns of one speaker in a row
// (as when only the user's side is stored) are separate statements, not a
// question and its answer.
func replies(a, b *lore.Episode) bool {
	return a.Scope == b.Scope && (a.Role != b.Role || !strings.EqualFold(a.Speaker, b.Speaker))
}
