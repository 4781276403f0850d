package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/lore-memory/lore"
)

// AroundAll returns, for each seed, what lore.EpisodesAround returns for it, reading the
// store once for each group of seeds of one scope whose windows overlap (the
// context seeds of a search are mostly turns of a few conversations, so
// their windows hold the same turns) instead of once per seed.
//
// The answer is lore.EpisodesAround's exactly: a group's read covers the union of its
// seeds' windows and asks for one more episode than lore.NeighbourScan per seed;
// when it gets fewer, it holds every episode of the union, so each seed's
// window is the read's episodes inside it, in the store's order, of which
// lore.EpisodesAround would take the first lore.NeighbourScan. When it gets that many, the
// group's seeds are looked up one by one.
func AroundAll(ctx context.Context, st lore.EpisodeFinder, seeds []*lore.Episode, window time.Duration, span int) (before, after [][]*lore.Episode, err error) {
	before = make([][]*lore.Episode, len(seeds))
	after = make([][]*lore.Episode, len(seeds))
	if window <= 0 {
		return before, after, nil
	}
	// Seeds by scope, then time; seeds without a time have no neighbours.
	order := make([]int, 0, len(seeds))
	for i, ep := range seeds {
		if !ep.OccurredAt.IsZero() {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := seeds[a], seeds[b]
		if c := cmpScope(x.Scope, y.Scope); c != 0 {
			return c
		}
		return x.OccurredAt.Compare(y.OccurredAt)
	})
	var groups [][]int
	for k, i := range order {
		if k > 0 {
			prev := seeds[order[k-1]]
			// Windows [t-w, t+w) of one scope overlap when the seeds are
			// less than 2w apart.
			if prev.Scope == seeds[i].Scope && seeds[i].OccurredAt.Sub(prev.OccurredAt) < 2*window {
				groups[len(groups)-1] = append(groups[len(groups)-1], i)
				continue
			}
		}
		groups = append(groups, []int{i})
	}
	errs := make([]error, len(groups))
	var wg sync.WaitGroup
	for g, group := range groups {
		wg.Go(func() {
			errs[g] = aroundGroup(ctx, st, seeds, group, window, span, before, after)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return before, after, nil
}

// aroundGroup fills before[i] and after[i] for the seeds of one group (same
// scope, in time order, overlapping windows).
func aroundGroup(ctx context.Context, st lore.EpisodeFinder, seeds []*lore.Episode, group []int, window time.Duration, span int, before, after [][]*lore.Episode) error {
	if len(group) == 1 {
		i := group[0]
		var err error
		before[i], after[i], err = lore.EpisodesAround(ctx, st, seeds[i], window, span)
		return err
	}
	first, last := seeds[group[0]], seeds[group[len(group)-1]]
	since, until := first.OccurredAt.Add(-window), last.OccurredAt.Add(window)
	limit := lore.NeighbourScan*len(group) + 1
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: first.Scope, Since: &since, Until: &until, Limit: limit})
	if err != nil {
		return fmt.Errorf("retrieve: neighbouring turns: %w", err)
	}
	if len(eps) >= limit {
		// A burst: the read may lack episodes of some window.
		for _, i := range group {
			if before[i], after[i], err = lore.EpisodesAround(ctx, st, seeds[i], window, span); err != nil {
				return err
			}
		}
		return nil
	}
	for _, i := range group {
		ep := seeds[i]
		lo, hi := ep.OccurredAt.Add(-window), ep.OccurredAt.Add(window)
		// The read is in the store's order, which starts with the time:
		// the seed's window is one run of it.
		start, _ := slices.BinarySearchFunc(eps, lo, func(e *lore.Episode, t time.Time) int { return e.OccurredAt.Compare(t) })
		end, _ := slices.BinarySearchFunc(eps, hi, func(e *lore.Episode, t time.Time) int { return e.OccurredAt.Compare(t) })
		in := eps[start:end]
		before[i], after[i] = lore.PickAround(in[:min(len(in), lore.NeighbourScan)], ep, span)
	}
	return nil
}

// cmpScope orders scopes by their fields.
func cmpScope(a, b lore.Scope) int {
	return cmp.Or(cmp.Compare(a.TenantID, b.TenantID), cmp.Compare(a.UserID, b.UserID),
		cmp.Compare(a.AgentID, b.AgentID), cmp.Compare(a.RunID, b.RunID))
}
