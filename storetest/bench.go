package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// BenchSpeakers measures Speakers, which every search with the speaker
// signal runs before it embeds the query, on one scope holding 10k episodes
// of two speakers. The caller owns sc and removes it afterwards.
func BenchSpeakers(b *testing.B, st lore.GraphStore, sc lore.Scope) {
	ctx := context.Background()
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	const episodes, batch = 10000, 500
	for start := 0; start < episodes; start += batch {
		eps := make([]*lore.Episode, batch)
		for i := range eps {
			n := start + i
			eps[i] = &lore.Episode{Scope: sc, Role: "user", Speaker: [...]string{"Caroline", "Melanie"}[n%2],
				Content: fmt.Sprintf("turn %d", n), OccurredAt: base.Add(time.Duration(n) * time.Minute)}
		}
		if err := st.AddEpisodes(ctx, eps); err != nil {
			b.Fatalf("AddEpisodes: %v", err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		sp, err := st.Speakers(ctx, sc)
		if err != nil {
			b.Fatal(err)
		}
		if len(sp) != 2 {
			b.Fatalf("Speakers = %v, want Caroline and Melanie", sp)
		}
	}
}
