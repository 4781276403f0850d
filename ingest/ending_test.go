package ingest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// endedFact extracts "I <pred> <obj>" from every episode, ended at invalidAt.
func endedFact(pred, obj, text string, invalidAt time.Time, res lore.Resolution) stubExtractor {
	return stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		ids := make([]string, len(req.Episodes))
		for i, ep := range req.Episodes {
			ids[i] = ep.ID
		}
		end := invalidAt
		return &lore.Extraction{Extractor: "stub/v1", Facts: []lore.ExtractedFact{{
			Subject: "I", Predicate: pred, Object: obj, ObjectIsEntity: true, ObjectType: "organization", Text: text,
			Confidence: 0.9, EpisodeIDs: ids, Resolution: res, InvalidAt: &end,
		}}}, nil
	}}
}

// factsByObject returns alice's facts, current or not, by object name.
func factsByObject(t *testing.T, st *memStore) map[string][]*lore.Fact {
	t.Helper()
	all, err := st.FindFacts(context.Background(), lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*lore.Fact{}
	for _, f := range all {
		out[f.Object] = append(out[f.Object], f)
	}
	return out
}

func currentObjects(t *testing.T, st *memStore) []string {
	t.Helper()
	cur, err := st.FindFacts(context.Background(), lore.FactFilter{Scope: alice().WithDefaults()})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range cur {
		out = append(out, f.Object)
	}
	slices.Sort(out)
	return out
}

func TestEndingClosesCurrentFact(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(90 * 24 * time.Hour)
	s, st, _ := newTestService(t, oneFact("works_at", "Spotify", "Alice works at Spotify", lore.Resolution{Kind: "new"}, nil))
	addSync(t, s, "I work at Spotify", t0)
	s.Extractor = endedFact("works_at", "Spotify", "Alice left Spotify", t1, lore.Resolution{Kind: "new"})
	res := addSync(t, s, "I left Spotify", t1)
	if got, want := eventKinds(res.Events), []string{"INVALIDATE:Alice works at Spotify"}; !slices.Equal(got, want) {
		t.Fatalf("events=%q, want %q", got, want)
	}
	if got := currentObjects(t, st); len(got) != 0 {
		t.Fatalf("current objects=%q, want none", got)
	}
	facts := factsByObject(t, st)["Spotify"]
	if len(facts) != 1 {
		t.Fatalf("Spotify facts=%d, want the one, closed (no second fact)", len(facts))
	}
	f := facts[0]
	if f.InvalidAt == nil || !f.InvalidAt.Equal(t1) || f.ExpiredAt == nil || f.Count != 1 {
		t.Fatalf("closed fact invalid_at=%v expired_at=%v count=%d, want %v, set and 1", f.InvalidAt, f.ExpiredAt, f.Count, t1)
	}
	hist, _ := st.History(ctx, alice().WithDefaults(), f.ID)
	if len(hist) != 2 || hist[1].Event != lore.EventInvalidate || hist[1].Reason != "ended: Alice left Spotify" || hist[1].Actor != "extractor:stub/v1" {
		t.Fatalf("history=%+v, want ADD then INVALIDATE with reason %q", hist, "ended: Alice left Spotify")
	}

	// Said again, or the job run again: the fact is already closed, and
	// nothing changes.
	res = addSync(t, s, "As I said, I left Spotify", t1.Add(time.Hour))
	if got, want := eventKinds(res.Events), []string{"NONE:Alice works at Spotify"}; !slices.Equal(got, want) {
		t.Fatalf("restated ending events=%q, want %q", got, want)
	}
	if n := len(factsByObject(t, st)["Spotify"]); n != 1 {
		t.Fatalf("Spotify facts after a restated ending=%d, want 1", n)
	}

	// Stated as current later, it is a new spell: the ending reopens
	// nothing, and nothing keeps the new one closed.
	s.Extractor = oneFact("works_at", "Spotify", "Alice works at Spotify again", lore.Resolution{Kind: "new"}, nil)
	res = addSync(t, s, "I'm back at Spotify", t1.Add(200*24*time.Hour))
	if got, want := eventKinds(res.Events), []string{"ADD:Alice works at Spotify again"}; !slices.Equal(got, want) {
		t.Fatalf("rejoin events=%q, want %q", got, want)
	}
	if got := currentObjects(t, st); !slices.Equal(got, []string{"Spotify"}) {
		t.Fatalf("current objects=%q, want Spotify once", got)
	}
}

func TestEndingWithoutTwinIsStoredClosed(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s, st, idx := newTestService(t, endedFact("lives_in", "Berlin", "Alice no longer lives in Berlin", t0, lore.Resolution{Kind: "new"}))
	res := addSync(t, s, "I don't live in Berlin anymore", t0)
	if got, want := eventKinds(res.Events), []string{"ADD:Alice no longer lives in Berlin"}; !slices.Equal(got, want) {
		t.Fatalf("events=%q, want %q", got, want)
	}
	// The event says the fact it added no longer holds.
	if at := res.Events[0].InvalidAt; at == nil || !at.Equal(t0) {
		t.Errorf("event invalid_at=%v, want %v", at, t0)
	}
	if got := currentObjects(t, st); len(got) != 0 {
		t.Fatalf("current objects=%q, want none", got)
	}
	facts := factsByObject(t, st)["Berlin"]
	if len(facts) != 1 {
		t.Fatalf("Berlin facts=%d, want 1", len(facts))
	}
	f := facts[0]
	if f.InvalidAt == nil || !f.InvalidAt.Equal(t0) {
		t.Fatalf("invalid_at=%v, want %v", f.InvalidAt, t0)
	}
	// When it began is unknown; it is not made up from the message time.
	if f.ValidAt != nil {
		t.Errorf("valid_at=%v, want unset", f.ValidAt)
	}
	if _, ok := idx.doc(f.ID); !ok {
		t.Errorf("closed fact %s is not indexed, want it searchable as history", f.ID)
	}
	// A later statement of the same triple is current: the closed fact
	// never absorbs it.
	s.Extractor = oneFact("lives_in", "Berlin", "Alice lives in Berlin", lore.Resolution{Kind: "new"}, nil)
	res = addSync(t, s, "I moved back to Berlin", t0.Add(48*time.Hour))
	if got, want := eventKinds(res.Events), []string{"ADD:Alice lives in Berlin"}; !slices.Equal(got, want) {
		t.Fatalf("later events=%q, want %q", got, want)
	}
}

func TestEndingClosesOnlyItsTwin(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		res         lore.Resolution
		wantEvents  []string
		wantCurrent []string
	}{
		// lives_in is single-valued, yet an ending of Berlin never
		// supersedes Paris: it states no new value.
		{"new", lore.Resolution{Kind: "new"}, []string{"ADD:Alice no longer lives in Berlin"}, []string{"Paris"}},
		{"contradicts a candidate of another object", lore.Resolution{Kind: "contradicts", Handle: 1},
			[]string{"ADD:Alice no longer lives in Berlin"}, []string{"Paris"}},
		{"duplicate of a candidate of another object", lore.Resolution{Kind: "duplicate", Handle: 1},
			[]string{"ADD:Alice no longer lives in Berlin"}, []string{"Paris"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st, _ := newTestService(t, oneFact("lives_in", "Paris", "Alice lives in Paris", lore.Resolution{Kind: "new"}, nil))
			addSync(t, s, "I live in Paris", t0)
			s.Extractor = endedFact("lives_in", "Berlin", "Alice no longer lives in Berlin", t0.Add(time.Hour), tt.res)
			res := addSync(t, s, "I don't live in Berlin anymore", t0.Add(time.Hour))
			if got := eventKinds(res.Events); !slices.Equal(got, tt.wantEvents) {
				t.Fatalf("events=%q, want %q", got, tt.wantEvents)
			}
			if got := currentObjects(t, st); !slices.Equal(got, tt.wantCurrent) {
				t.Fatalf("current objects=%q, want %q", got, tt.wantCurrent)
			}
		})
	}
}

func TestEndingBeforeALaterSpellKeepsIt(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(365 * 24 * time.Hour)
	s, st, _ := newTestService(t, oneFact("works_at", "Acme", "Alice works at Acme", lore.Resolution{Kind: "new"}, nil))
	addSync(t, s, "I work at Acme", t1)
	// An older message, imported late: she left Acme before this spell.
	s.Extractor = endedFact("works_at", "Acme", "Alice left Acme", t0, lore.Resolution{Kind: "new"})
	res := addSync(t, s, "I left Acme", t0)
	if got, want := eventKinds(res.Events), []string{"ADD:Alice left Acme"}; !slices.Equal(got, want) {
		t.Fatalf("events=%q, want %q", got, want)
	}
	if got := currentObjects(t, st); !slices.Equal(got, []string{"Acme"}) {
		t.Fatalf("current objects=%q, want the later Acme spell", got)
	}
	for _, f := range factsByObject(t, st)["Acme"] {
		if strings.Contains(f.Text, "left") && (f.InvalidAt == nil || !f.InvalidAt.Equal(t0)) {
			t.Errorf("ended fact invalid_at=%v, want %v", f.InvalidAt, t0)
		}
	}
}

func TestSingleValuedTableAndOperatorPredicates(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		extra       []string
		pred        string
		wantCurrent []string
	}{
		{"table: diet", nil, "diet", []string{"vegan"}},
		{"table: favorite_ prefix", nil, "favorite_band", []string{"vegan"}},
		{"not in the table", nil, "shoe_size", []string{"vegan", "vegetarian"}},
		{"operator's predicate", []string{"shoe_size"}, "shoe_size", []string{"vegan"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, st, _ := newTestService(t, oneFact(tt.pred, "vegetarian", "Alice's "+tt.pred+" is vegetarian", lore.Resolution{Kind: "new"}, nil))
			s.Config.SingleValuedPredicates = tt.extra
			addSync(t, s, "first", t0)
			s.Extractor = oneFact(tt.pred, "vegan", "Alice's "+tt.pred+" is vegan", lore.Resolution{Kind: "new"}, nil)
			addSync(t, s, "second", t0.Add(time.Hour))
			if got := currentObjects(t, st); !slices.Equal(got, tt.wantCurrent) {
				t.Fatalf("current objects=%q, want %q", got, tt.wantCurrent)
			}
		})
	}
}

// TestEndingClosesTheSameValueHeldAsAnEntity: a value stored as an entity
// ("ICU nurse at Haukeland") is closed by an ending that names it as text,
// and no second, closed fact is stored beside it.
func TestEndingClosesTheSameValueHeldAsAnEntity(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(150 * 24 * time.Hour)
	s, st, _ := newTestService(t, oneFact("works_as", "ICU nurse at Haukeland", "Alice works as an ICU nurse at Haukeland", lore.Resolution{Kind: "new"}, nil))
	addSync(t, s, "I work as an ICU nurse at Haukeland", t0)
	literal := endedFact("works_as", "icu nurse at haukeland", "Alice works as ICU nurse at Haukeland", t1, lore.Resolution{Kind: "new"})
	inner := literal.fn
	literal.fn = func(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		ex, err := inner(ctx, req)
		ex.Facts[0].ObjectIsEntity, ex.Facts[0].ObjectType = false, ""
		return ex, err
	}
	s.Extractor = literal
	res := addSync(t, s, "I left Haukeland after 24 years", t1)
	if got, want := eventKinds(res.Events), []string{"INVALIDATE:Alice works as an ICU nurse at Haukeland"}; !slices.Equal(got, want) {
		t.Fatalf("events=%q, want %q", got, want)
	}
	if got := currentObjects(t, st); len(got) != 0 {
		t.Fatalf("current objects=%q, want none", got)
	}
	if n := len(factsByObject(t, st)["icu nurse at haukeland"]); n != 0 {
		t.Fatalf("a second, closed fact was stored (%d)", n)
	}
}

// replacingFact is oneFact marked as replacing the predicate's other
// current objects.
func replacingFact(pred, obj, text string) stubExtractor {
	inner := oneFact(pred, obj, text, lore.Resolution{Kind: "new"}, nil)
	return stubExtractor{fn: func(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		ex, err := inner.fn(ctx, req)
		if err == nil {
			ex.Facts[0].Replaces = true
		}
		return ex, err
	}}
}

// TestReplacesClosesMultiValuedPredicate: has_landlord is not single-valued,
// so a second landlord closes nothing unless the extractor says the new one
// replaces the old ("my new landlord is …").
func TestReplacesClosesMultiValuedPredicate(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s, st, _ := newTestService(t, oneFact("has_landlord", "Dona Cida", "Dona Cida is Alice's landlord", lore.Resolution{Kind: "new"}, nil))
	addSync(t, s, "My landlord Dona Cida lives downstairs", t0)
	s.Extractor = oneFact("has_landlord", "Sr. Paulo", "Sr. Paulo is Alice's landlord", lore.Resolution{Kind: "new"}, nil)
	addSync(t, s, "Sr. Paulo is my landlord too", t0.Add(time.Hour))
	if got, want := currentObjects(t, st), []string{"Dona Cida", "Sr. Paulo"}; !slices.Equal(got, want) {
		t.Fatalf("current objects=%q, want %q (a multi-valued predicate closes nothing by itself)", got, want)
	}
	t1 := t0.Add(60 * 24 * time.Hour)
	s.Extractor = replacingFact("has_landlord", "Imobiliária Horizonte", "Imobiliária Horizonte is Alice's landlord")
	addSync(t, s, "My new landlord is Imobiliária Horizonte", t1)
	if got, want := currentObjects(t, st), []string{"Imobiliária Horizonte"}; !slices.Equal(got, want) {
		t.Fatalf("current objects=%q, want %q", got, want)
	}
	old := factsByObject(t, st)["Dona Cida"][0]
	if old.InvalidAt == nil || !old.InvalidAt.Equal(t1) {
		t.Fatalf("old landlord invalid_at=%v, want %v (kept in history, closed when the new one began)", old.InvalidAt, t1)
	}
}
