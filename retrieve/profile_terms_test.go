package retrieve

import (
	"slices"
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
