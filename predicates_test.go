package lore

import (
	"strings"
	"testing"
)

func TestSingleValuedTable(t *testing.T) {
	if !strings.HasPrefix(singleValuedTable, "# Single-valued predicates") || !strings.Contains(singleValuedTable, "Written by hand") {
		t.Errorf("single_valued.txt lacks its header saying what it is and where it came from")
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(singleValuedTable, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		base := strings.TrimSuffix(line, "*")
		norm, err := NormalizePredicate(base)
		if err != nil || (norm != base && norm+"_" != base) {
			t.Errorf("line %d %q is not in NormalizePredicate form (got %q, %v)", i+1, line, norm, err)
		}
		if seen[line] {
			t.Errorf("line %d %q is listed twice", i+1, line)
		}
		seen[line] = true
	}
}

func TestSingleValuedPredicates(t *testing.T) {
	s, err := SingleValuedPredicates("Favourite Team", " ", "shoe_size", "pet_*")
	if err != nil {
		t.Fatalf("SingleValuedPredicates: %v", err)
	}
	cases := []struct {
		predicate string
		want      bool
	}{
		{"lives_in", true},
		{"works_at", true},
		{"diet", true},
		{"drives", true},
		{"uses_editor", true},
		{"has_boyfriend", true},
		{"has_wife", true},
		{"studies_at", true},
		{"relationship_status", true},
		{"favorite_color", true},
		{"favorite_board_game", true},
		{"favorite", false}, // a prefix entry needs something after it
		{"likes", false},
		{"has_sister", false},
		{"has_dog", false},
		{"visited", false},
		{"favourite_team", true}, // an operator's extra, normalized
		{"shoe_size", true},
		{"pet_name", true},
		{"pet", false},
	}
	for _, c := range cases {
		if got := s.Has(c.predicate); got != c.want {
			t.Errorf("Has(%q)=%v, want %v", c.predicate, got, c.want)
		}
	}
	def, err := SingleValuedPredicates()
	if err != nil {
		t.Fatal(err)
	}
	if def.Has("shoe_size") || def.Len() >= s.Len() {
		t.Errorf("extras leaked into the default set: Has(shoe_size)=%v len %d vs %d", def.Has("shoe_size"), def.Len(), s.Len())
	}
	for _, c := range cases {
		if want := def.Has(c.predicate); SingleValued(c.predicate) != want {
			t.Errorf("SingleValued(%q)=%v, want %v as the default set", c.predicate, !want, want)
		}
	}
}

func TestSingleValuedPredicatesInvalid(t *testing.T) {
	for _, bad := range []string{"!!!", "a*b", strings.Repeat("x", MaxPredicateLength+1)} {
		if _, err := SingleValuedPredicates(bad); ErrorCode(err) != EINVALID {
			t.Errorf("SingleValuedPredicates(%q) err=%v, want EINVALID", bad, err)
		}
	}
}

func TestParsePredicateList(t *testing.T) {
	got := ParsePredicateList(" shoe_size, ,team ,")
	if len(got) != 2 || got[0] != "shoe_size" || got[1] != "team" {
		t.Errorf("ParsePredicateList=%q, want [shoe_size team]", got)
	}
	if got := ParsePredicateList(""); got != nil {
		t.Errorf("ParsePredicateList(\"\")=%q, want nil", got)
	}
}
