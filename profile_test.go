package lore

import (
	"strings"
	"testing"
)

func TestProfileKeysTable(t *testing.T) {
	keys := ProfileKeys()
	if len(keys) < 10 {
		t.Fatalf("ProfileKeys()=%d rows, want the table of profile_keys.txt", len(keys))
	}
	for _, k := range keys {
		base := strings.TrimSuffix(k.Key, "*")
		if norm, err := NormalizePredicate(base); err != nil || (norm != base && norm+"_" != base) {
			t.Errorf("key %q is not in predicate form", k.Key)
		}
		if k.About == "" {
			t.Errorf("key %q has no description", k.Key)
		}
	}
	for _, c := range []struct {
		key   string
		multi bool
	}{
		{"diet", false}, {"allergy", true}, {"interest", true}, {"place", true},
		{"level_climbing", false}, {"level_", false}, {"unknown_key", false},
	} {
		if got := MultiValuedProfileKey(c.key); got != c.multi {
			t.Errorf("MultiValuedProfileKey(%q)=%v, want %v", c.key, got, c.multi)
		}
	}
}

func TestQueryEvidenceHidesTheQuery(t *testing.T) {
	a, b := QueryEvidence("Vegetarian  dinner ideas?"), QueryEvidence("vegetarian dinner ideas?")
	if a != b {
		t.Errorf("QueryEvidence differs by case and spaces: %q vs %q", a, b)
	}
	if !strings.HasPrefix(a, QueryEvidencePrefix) || strings.Contains(a, "vegetarian") || len(a) != len(QueryEvidencePrefix)+32 {
		t.Errorf("QueryEvidence=%q, want query: and 32 hex digits", a)
	}
}
