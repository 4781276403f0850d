package neo4j

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestMigrateCountsSpeakersOfOlderEpisodes strips a tenant's Speaker nodes
// and the backfill mark, as in a database written before Speaker nodes
// existed: Migrate must count its episodes' speakers again, exactly.
func TestMigrateCountsSpeakersOfOlderEpisodes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, sc := openTest(t, ctx, "neo4j-speakers-")
	agent := sc
	agent.AgentID = "helper"
	eps := []*lore.Episode{
		{Scope: sc, Role: "user", Speaker: "Melanie", Content: "one", OccurredAt: time.Now()},
		{Scope: sc, Role: "user", Speaker: "Melanie", Content: "two", OccurredAt: time.Now()},
		{Scope: sc, Role: "user", Speaker: "Caroline", Content: "three", OccurredAt: time.Now()},
		{Scope: agent, Role: "assistant", Speaker: "Helper", Content: "four", OccurredAt: time.Now()},
	}
	if err := st.AddEpisodes(ctx, eps); err != nil {
		t.Fatalf("AddEpisodes: %v", err)
	}
	speakers := func(want ...string) {
		t.Helper()
		got, err := st.Speakers(ctx, sc)
		if err != nil {
			t.Fatalf("Speakers: %v", err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Speakers=%v, want %v", got, want)
		}
	}
	speakers("Caroline", "Helper", "Melanie")

	if err := st.exec(ctx, "MATCH (s:Speaker {tenant_id: $tenant_id}) DELETE s", map[string]any{"tenant_id": sc.TenantID}); err != nil {
		t.Fatalf("drop Speaker nodes: %v", err)
	}
	if err := st.exec(ctx, "MATCH (m:Meta {key: $key}) DELETE m", map[string]any{"key": metaSpeakersCounted}); err != nil {
		t.Fatalf("drop the backfill mark: %v", err)
	}
	speakers()
	if err := st.Migrate(ctx); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	speakers("Caroline", "Helper", "Melanie")
	if _, err := st.GetMeta(ctx, metaSpeakersCounted); err != nil {
		t.Fatalf("backfill mark after Migrate: %v", err)
	}
	// The counts are exact: Melanie goes with her second turn, not her first.
	if err := st.DeleteEpisode(ctx, sc, eps[0].ID, "test"); err != nil {
		t.Fatalf("DeleteEpisode: %v", err)
	}
	speakers("Caroline", "Helper", "Melanie")
	if err := st.DeleteEpisode(ctx, sc, eps[1].ID, "test"); err != nil {
		t.Fatalf("DeleteEpisode: %v", err)
	}
	speakers("Caroline", "Helper")
}
