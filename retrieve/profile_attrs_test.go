package retrieve_test

import (
	"context"
	"maps"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/retrieve"
)

// TestProfileAttributes reads cohort attributes from stored profiles: role
// from the occupation, locale from the location, expertise from the most
// confident level; sets (interests) name no cohort; another tenant's users
// are not seen.
func TestProfileAttributes(t *testing.T) {
	ctx := context.Background()
	st, _ := sqlitetest.Open(t)
	for _, w := range []struct {
		user string
		e    lore.ProfileEntry
	}{
		{"alice", lore.ProfileEntry{Key: "occupation", Value: "Nurse"}},
		{"alice", lore.ProfileEntry{Key: "location", Value: "Lisbon"}},
		{"alice", lore.ProfileEntry{Key: "level_climbing", Value: "beginner", Source: lore.ProfileInferred, Confidence: 0.6}},
		{"alice", lore.ProfileEntry{Key: "level_cooking", Value: "advanced"}},
		{"alice", lore.ProfileEntry{Key: "interest", Value: "jazz"}},
		{"bob", lore.ProfileEntry{Key: "interest", Value: "chess"}},
	} {
		if _, err := st.PutProfileEntry(ctx, lore.Scope{TenantID: "acme", UserID: w.user}, w.e); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.PutProfileEntry(ctx, lore.Scope{TenantID: "other", UserID: "carol"}, lore.ProfileEntry{Key: "occupation", Value: "pilot"}); err != nil {
		t.Fatal(err)
	}
	got, err := retrieve.ProfileAttributes{Store: st}.UserAttributes(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{"alice": {
		"occupation": "nurse", "role": "nurse", "location": "lisbon", "locale": "lisbon",
		"level_climbing": "beginner", "level_cooking": "advanced", "expertise": "advanced",
	}}
	if len(got) != len(want) || !maps.Equal(got["alice"], want["alice"]) {
		t.Errorf("UserAttributes=%v, want %v (bob has only a set, carol is another tenant's)", got, want)
	}
}
