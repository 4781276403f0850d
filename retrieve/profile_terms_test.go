package retrieve

import (
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

// TestProfileTermsIgnore: an entry's generic words ("user", "aspiring")
// lend no fit: every fact's text starts with "user".
func TestProfileTermsIgnore(t *testing.T) {
	fit, clash := profileTerms([]lore.ProfileEntry{{Key: "identity", Value: "aspiring Sony camera user"}})
	for _, w := range []string{"user", "aspiring"} {
		if slices.Contains(fit, w) || slices.Contains(clash, w) {
			t.Errorf("fit %v clash %v hold %q, want it ignored", fit, clash, w)
		}
	}
	if !slices.Contains(fit, "sony") || !slices.Contains(fit, "camera") {
		t.Errorf("fit %v, want the value's topic words sony and camera", fit)
	}
}

// TestAboutUserPerKey: a long set of one key leaves room for the others.
func TestAboutUserPerKey(t *testing.T) {
	var entries []lore.ProfileEntry
	entries = append(entries, lore.ProfileEntry{Key: "allergy", Value: "peanut", Source: lore.ProfileExplicit})
	for _, v := range []string{"bike", "camera", "desk", "guitar", "laptop", "phone", "sofa", "tv", "van", "watch", "kettle", "oven"} {
		entries = append(entries, lore.ProfileEntry{Key: "owns", Value: v, Source: lore.ProfileExplicit})
	}
	entries = append(entries, lore.ProfileEntry{Key: "pet", Value: "dog", Source: lore.ProfileExplicit})
	got := withAboutUser(entries, "", 0)
	if n := strings.Count(got, "- owns:"); n != maxAboutPerKey {
		t.Errorf("%d owns lines, want %d:\n%s", n, maxAboutPerKey, got)
	}
	for _, want := range []string{"- allergy: peanut", "- pet: dog"} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
}
