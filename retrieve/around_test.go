package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// memFinder is an EpisodeFinder over a slice, with the stores' order
// (occurred, created, id), time range and limit; it counts its reads.
type memFinder struct {
	eps   []*lore.Episode
	reads int
}

func (m *memFinder) FindEpisodes(_ context.Context, f lore.EpisodeFilter) ([]*lore.Episode, error) {
	m.reads++
	var out []*lore.Episode
	for _, e := range m.eps {
		if e.Scope != f.Scope || (f.Since != nil && e.OccurredAt.Before(*f.Since)) || (f.Until != nil && !e.OccurredAt.Before(*f.Until)) {
			continue
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *lore.Episode) int {
		return cmp.Or(a.OccurredAt.Compare(b.OccurredAt), a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

// TestAroundAllIsAround: the grouped lookup answers exactly as Around does
// seed by seed, on conversations with spread turns, turns sharing one
// time, bursts larger than lore.NeighbourScan, two users and two runs, and
// seeds without a time; and it reads less.
func TestAroundAllIsAround(t *testing.T) {
	base := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	scopes := []lore.Scope{
		{TenantID: "t", UserID: "u1"}, {TenantID: "t", UserID: "u2"},
		{TenantID: "t", UserID: "u1", RunID: "r1"},
	}
	for trial := range 60 {
		rng := rand.New(rand.NewPCG(uint64(trial), 7))
		m := &memFinder{}
		n := 0
		for s := range 1 + rng.IntN(6) { // sessions
			sc := scopes[rng.IntN(len(scopes))]
			start := base.Add(time.Duration(rng.IntN(72)) * time.Hour)
			turns := 1 + rng.IntN(40)
			if rng.IntN(5) == 0 {
				turns = lore.NeighbourScan + rng.IntN(80) // a burst
			}
			step := time.Duration(rng.IntN(3)) * time.Minute // 0: one time for all
			for k := range turns {
				n++
				m.eps = append(m.eps, &lore.Episode{ID: fmt.Sprintf("e%04d", n), Scope: sc,
					OccurredAt: start.Add(time.Duration(k) * step), CreatedAt: base.Add(time.Duration(n) * time.Second),
					Role: []string{"user", "assistant"}[k%2], Speaker: fmt.Sprint(s)})
			}
		}
		var seeds []*lore.Episode
		for range 1 + rng.IntN(12) {
			ep := *m.eps[rng.IntN(len(m.eps))]
			if rng.IntN(10) == 0 {
				ep.OccurredAt = time.Time{}
			}
			seeds = append(seeds, &ep)
		}
		window, span := time.Hour, 1+rng.IntN(3)
		ctx := context.Background()
		before, after, err := AroundAll(ctx, m, seeds, window, span)
		if err != nil {
			t.Fatal(err)
		}
		grouped := m.reads
		m.reads = 0
		for i, ep := range seeds {
			wb, wa, err := lore.EpisodesAround(ctx, m, ep, window, span)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(epIDs(before[i]), epIDs(wb)) || !slices.Equal(epIDs(after[i]), epIDs(wa)) {
				t.Fatalf("trial %d seed %s: AroundAll before %v after %v, Around before %v after %v",
					trial, ep.ID, epIDs(before[i]), epIDs(after[i]), epIDs(wb), epIDs(wa))
			}
		}
		if grouped > m.reads {
			t.Fatalf("trial %d: AroundAll read %d times, Around seed by seed %d", trial, grouped, m.reads)
		}
	}
}

func epIDs(eps []*lore.Episode) []string {
	out := make([]string, len(eps))
	for i, e := range eps {
		out[i] = e.ID
	}
	return out
}
