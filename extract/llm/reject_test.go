package llm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

// goodFact is a valid fact every rejection case's reply also holds.
const goodFact = `{"subject": "user", "predicate": "lives_in", "object": "Lisbon", "object_is_entity": true, "fact": "Alice lives in Lisbon.", "valid_at": "", "invalid_at": "", "confidence": 0.9, "messages": [1], "resolution": "new", "candidate_fact": 0}`

// fact returns a fact item with the given fields overriding a valid one.
func fact(fields string) string {
	base := `"subject": "user", "predicate": "likes", "object": "surfing", "object_is_entity": false, "fact": "Alice likes surfing.", "valid_at": "", "invalid_at": "", "confidence": 0.8, "messages": [3], "resolution": "new", "candidate_fact": 0`
	return "{" + mergeFields(base, fields) + "}"
}

// mergeFields replaces fields of base by those of over ("key": value pairs
// separated by ", " without nested commas at the top level of a value),
// dropping those set to the value DROP.
func mergeFields(base, over string) string {
	vals := map[string]string{}
	var order []string
	split := func(s string) []string {
		var parts []string
		depth, start := 0, 0
		for i, r := range s {
			switch r {
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			case ',':
				if depth == 0 {
					parts = append(parts, strings.TrimSpace(s[start:i]))
					start = i + 1
				}
			}
		}
		if rest := strings.TrimSpace(s[start:]); rest != "" {
			parts = append(parts, rest)
		}
		return parts
	}
	for _, kv := range split(base) {
		k, v, _ := strings.Cut(kv, ":")
		vals[k] = v
		order = append(order, k)
	}
	for _, kv := range split(over) {
		k, v, _ := strings.Cut(kv, ":")
		if _, ok := vals[k]; !ok {
			order = append(order, k)
		}
		vals[k] = v
	}
	var out []string
	for _, k := range order {
		if strings.TrimSpace(vals[k]) != "DROP" {
			out = append(out, k+":"+vals[k])
		}
	}
	return strings.Join(out, ", ")
}

func TestExtractRejections(t *testing.T) {
	lisbon := `{"name": "Lisbon", "type": "place", "aliases": [], "candidate": 0}`
	tests := []struct {
		name     string
		entities []string
		facts    []string
		profile  []string
		reason   string // a substring of every expected rejection
		rejected int    // how many rejections; 0 means 1
		// check inspects what was kept beyond the good fact.
		check func(t *testing.T, ext *lore.Extraction)
	}{
		{
			name:     "unknown candidate entity",
			entities: []string{`{"name": "Porto", "type": "place", "aliases": [], "candidate": 9}`},
			reason:   "unknown candidate entity 9",
			check:    wantEntities("Lisbon"),
		},
		{
			name:     "entity typed as another user",
			entities: []string{`{"name": "Bob", "type": "user", "aliases": [], "candidate": 0}`},
			facts:    []string{fact(`"subject": "Bob", "predicate": "lives_in", "object": "Madrid", "fact": "Bob lives in Madrid."`)},
			reason:   "not this scope's user",
			rejected: 2, // the entity and the fact about it
			check:    wantFacts(1),
		},
		{
			name:   "missing predicate",
			facts:  []string{fact(`"predicate": DROP`)},
			reason: "missing predicate",
			check:  wantFacts(1),
		},
		{
			name:   "missing messages",
			facts:  []string{fact(`"messages": []`)},
			reason: "missing messages",
			check:  wantFacts(1),
		},
		{
			name:   "predicate without letters",
			facts:  []string{fact(`"predicate": "!!!"`)},
			reason: "bad predicate",
			check:  wantFacts(1),
		},
		{
			name:   "unknown message handle",
			facts:  []string{fact(`"messages": [3, 7]`)},
			reason: "unknown message in [3 7]",
			check:  wantFacts(1),
		},
		{
			name:   "duplicate of unknown candidate fact",
			facts:  []string{fact(`"resolution": "duplicate", "candidate_fact": 5`)},
			reason: "duplicate of unknown candidate fact 5",
			check:  wantFacts(1),
		},
		{
			name:   "unknown resolution",
			facts:  []string{fact(`"resolution": "maybe"`)},
			reason: `unknown resolution "maybe"`,
			check:  wantFacts(1),
		},
		{
			name:   "claim about the user only the assistant made",
			facts:  []string{fact(`"messages": [2]`)},
			reason: "only the assistant made",
			check:  wantFacts(1),
		},
		{
			name:    "profile from the assistant only",
			profile: []string{`{"key": "hobby", "value": "surfing", "confidence": 0.6, "messages": [2]}`},
			reason:  "assistant messages only",
			check: func(t *testing.T, ext *lore.Extraction) {
				if len(ext.Profile) != 1 || ext.Profile[0].Key != "favorite_drink" {
					t.Errorf("profile=%+v, want only favorite_drink", ext.Profile)
				}
			},
		},
		{
			name:   "date before 1900",
			facts:  []string{fact(`"valid_at": "1850-01-01"`)},
			reason: "before 1900; date dropped",
			check:  wantUndated(2),
		},
		{
			name:   "date decades after the message",
			facts:  []string{fact(`"valid_at": "2090-06-01"`)},
			reason: "more than 5 years after its message",
			check:  wantUndated(2),
		},
		{
			name:   "date that is not a date",
			facts:  []string{fact(`"valid_at": "next week"`)},
			reason: `"next week" is not a date`,
			check:  wantUndated(2),
		},
		{
			name:   "invalid_at before valid_at",
			facts:  []string{fact(`"valid_at": "2024-03-01", "invalid_at": "2023-01-01"`)},
			reason: "invalid_at 2023-01-01 is before valid_at",
			check: func(t *testing.T, ext *lore.Extraction) {
				f := factBy(ext, "likes", "surfing")
				if f == nil || f.ValidAt == nil || f.InvalidAt != nil {
					t.Errorf("fact=%+v, want valid_at kept and invalid_at dropped", f)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, "")
			x, logs := newExtractor(t, srv)
			reply := fmt.Sprintf(`{"entities": [%s], "facts": [%s], "profile": [%s]}`,
				strings.Join(append([]string{lisbon}, tt.entities...), ", "),
				strings.Join(append([]string{goodFact}, tt.facts...), ", "),
				strings.Join(append([]string{`{"key": "favorite drink", "value": "coffee", "confidence": 0.8, "messages": [3]}`}, tt.profile...), ", "))
			srv.Then(llmtest.Behavior{Reply: &reply})

			ext, err := x.Extract(context.Background(), conversation())
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			want := max(tt.rejected, 1)
			if len(ext.Rejected) != want {
				t.Fatalf("Rejected=%q, want %d reasons containing %q", ext.Rejected, want, tt.reason)
			}
			for _, r := range ext.Rejected {
				if !strings.Contains(r, tt.reason) {
					t.Errorf("rejection %q, want it to contain %q", r, tt.reason)
				}
			}
			if !strings.Contains(logs.String(), "dropped part of the model's reply") {
				t.Errorf("log lacks the rejection:\n%s", logs)
			}
			if factBy(ext, "lives_in", "Lisbon") == nil {
				t.Errorf("facts=%+v, want the valid lives_in fact kept", ext.Facts)
			}
			if tt.check != nil {
				tt.check(t, ext)
			}
		})
	}
}

func wantEntities(names ...string) func(*testing.T, *lore.Extraction) {
	return func(t *testing.T, ext *lore.Extraction) {
		t.Helper()
		var got []string
		for _, e := range ext.Entities {
			got = append(got, e.Name)
		}
		if !sameIDs(got, names) {
			t.Errorf("entities=%q, want %q", got, names)
		}
	}
}

func wantFacts(n int) func(*testing.T, *lore.Extraction) {
	return func(t *testing.T, ext *lore.Extraction) {
		t.Helper()
		if len(ext.Facts) != n {
			t.Errorf("len(Facts)=%d, want %d: %+v", len(ext.Facts), n, ext.Facts)
		}
	}
}

// wantUndated expects n facts, the surfing one kept without its date.
func wantUndated(n int) func(*testing.T, *lore.Extraction) {
	return func(t *testing.T, ext *lore.Extraction) {
		t.Helper()
		wantFacts(n)(t, ext)
		if f := factBy(ext, "likes", "surfing"); f == nil || f.ValidAt != nil {
			t.Errorf("surfing fact=%+v, want it kept without valid_at", f)
		}
	}
}

func TestExtractMergesRepeatedFacts(t *testing.T) {
	srv := llmtest.New(t, "")
	x, _ := newExtractor(t, srv)
	reply := fmt.Sprintf(`{"entities": [], "facts": [%s, %s, %s], "profile": []}`,
		fact(`"object": "coffee", "messages": [1], "confidence": 0.6`),
		fact(`"object": "Coffee", "messages": [3], "confidence": 0.9, "fact": "Alice really likes coffee."`),
		fact(`"object": "tea", "messages": [3]`))
	srv.Then(llmtest.Behavior{Reply: &reply})
	req := conversation()
	ext, err := x.Extract(context.Background(), req)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if len(ext.Facts) != 2 {
		t.Fatalf("facts=%+v, want coffee once and tea", ext.Facts)
	}
	f := factBy(ext, "likes", "coffee")
	if want := []string{req.Episodes[0].ID, req.Episodes[2].ID}; f == nil || !sameIDs(f.EpisodeIDs, want) || f.Confidence != 0.9 {
		t.Errorf("coffee fact=%+v, want episodes %q and confidence 0.9", f, want)
	}
}
