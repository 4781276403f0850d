package retrieve_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// gearWorld is a user who said in passing which camera she has, among
// other talk, with a profile entry learned from that message and one
// learned from another.
func gearWorld(t *testing.T, others int) (*world, lore.Scope, *lore.Episode, *lore.Episode) {
	w := newWorld(t, hashEmbedder{Dim: 256})
	sc := lore.Scope{TenantID: "t", UserID: "u"}
	for i := range others {
		w.episode(sc, i, "", fmt.Sprintf("Can you suggest accessories for my weekend plans number %d?", i), nil)
	}
	gear := w.episode(sc, 40, "", "Can you suggest a flash for my Sony A7R IV?", nil)
	trip := w.episode(sc, 41, "", "I am going to Lisbon next month.", nil)
	for _, e := range []lore.ProfileEntry{
		{Key: "owns", Value: "sony a7r iv camera", Evidence: []string{gear.ID}},
		{Key: "place", Value: "Lisbon", Evidence: []string{trip.ID}},
		{Key: "interest", Value: "camera", Evidence: []string{lore.QueryEvidence("camera gear")}},
	} {
		if _, err := w.store.PutProfileEntry(w.ctx, sc, e); err != nil {
			t.Fatal(err)
		}
	}
	return w, sc, gear, trip
}

func TestProfileEvidence(t *testing.T) {
	w, sc, gear, trip := gearWorld(t, 12)
	p := w.pipeline()
	p.Profiles = w.store
	p.Config.Profile.Evidence, p.Config.Profile.EvidenceMinSim, p.Config.Profile.EvidenceWeight = true, 0.2, 0.5
	req := retrieve.Request{Scope: sc, Query: "Can you suggest accessories for my camera setup?", TopK: 5, Explain: true}
	p.Config.Profile.Evidence = false
	if got := search(t, p, req); len(got.Results) > 0 && got.Results[0].ID == gear.ID {
		t.Fatalf("results without the boost %v: the camera's message is already first, the test shows nothing", memories(got.Results))
	}
	p.Config.Profile.Evidence = true
	got := search(t, p, req)
	if len(got.Results) == 0 || got.Results[0].ID != gear.ID {
		t.Fatalf("results %v, want the message naming her camera first", memories(got.Results))
	}
	for i, r := range got.Results {
		f, ok := r.ScoreDetails[retrieve.SignalProfileEvidence]
		if want := r.ID == gear.ID; ok != want || (ok && f != 1+p.Config.Profile.EvidenceWeight) {
			t.Errorf("result %q: evidence factor %v (set %v), want set=%v at 1.5", r.Memory, f, ok, want)
		}
		if r.ID == trip.ID {
			t.Errorf("the trip's message %q was boosted into the results", r.Memory)
		}
		if i > 0 && got.Results[i-1].Score < r.Score {
			t.Errorf("results not in score order at %d", i)
		}
	}
	// Off, nothing carries the factor.
	p.Config.Profile.Evidence = false
	for _, r := range search(t, p, req).Results {
		if _, ok := r.ScoreDetails[retrieve.SignalProfileEvidence]; ok {
			t.Errorf("evidence off: %q carries the factor", r.Memory)
		}
	}
	// A unique-answer query comes back exactly as without it.
	fact := retrieve.Request{Scope: sc, Query: "What camera did I buy?", TopK: 5}
	before := search(t, p, fact)
	p.Config.Profile.Evidence = true
	after := search(t, p, fact)
	if !slices.Equal(resultIDs(before.Results), resultIDs(after.Results)) {
		t.Errorf("a unique-answer query moved: %v → %v", memories(before.Results), memories(after.Results))
	}
}

func TestProfileEvidenceNeedsTenCandidates(t *testing.T) {
	w, sc, _, _ := gearWorld(t, 3)
	p := w.pipeline()
	p.Profiles = w.store
	p.Config.Profile.Evidence, p.Config.Profile.EvidenceMinSim = true, 0.2
	for _, r := range search(t, p, retrieve.Request{Scope: sc, Query: "accessories for my camera setup?", Explain: true}).Results {
		if _, ok := r.ScoreDetails[retrieve.SignalProfileEvidence]; ok {
			t.Errorf("%q was boosted among few candidates, want no boost under 10", r.Memory)
		}
	}
}

func TestProfileEvidenceValidate(t *testing.T) {
	for _, c := range []struct {
		cfg retrieve.ProfileConfig
		ok  bool
	}{
		{retrieve.ProfileConfig{Evidence: true, EvidenceWeight: 0.3, EvidenceTop: 3, EvidenceMinSim: 0.3}, true},
		{retrieve.ProfileConfig{Evidence: true, EvidenceWeight: 1.5, EvidenceTop: 3}, false},
		{retrieve.ProfileConfig{Evidence: true, EvidenceWeight: 0.3, EvidenceTop: 0}, false},
		{retrieve.ProfileConfig{Evidence: false, EvidenceTop: 0}, true},
	} {
		if err := c.cfg.Validate(); (err == nil) != c.ok {
			t.Errorf("Validate(%+v)=%v, want ok=%v", c.cfg, err, c.ok)
		}
	}
}
