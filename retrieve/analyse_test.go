package retrieve

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"lower case and punctuation", "When did Caroline move to Boston?", []string{"when", "did", "caroline", "move", "to", "boston"}},
		{"possessive", "Caroline's sister", []string{"caroline", "sister"}},
		{"curly possessive", "Melanie’s kids", []string{"melanie", "kids"}},
		{"contraction keeps first part", "I'm sure I don't", []string{"i", "sure", "i", "don"}},
		{"digits", "in May 2023", []string{"in", "may", "2023"}},
		{"hyphen splits", "self-care", []string{"self", "care"}},
		{"empty", " ?! ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := words(tt.in); !slices.Equal(got, tt.want) {
				t.Fatalf("words(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAnalyse(t *testing.T) {
	ref := time.Date(2023, 5, 20, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		query       string
		terms       []string
		ngrams      []string
		firstPerson bool
	}{
		{
			name:   "third person",
			query:  "Where does Caroline's sister live?",
			terms:  []string{"caroline", "sister", "live"},
			ngrams: []string{"caroline sister live", "caroline sister", "sister live", "caroline", "sister", "live"},
		},
		{
			name:        "first person",
			query:       "What is my favourite food?",
			terms:       []string{"favourite", "food"},
			ngrams:      []string{"favourite food", "favourite", "food"},
			firstPerson: true,
		},
		{
			name:   "n-grams skip stopword edges",
			query:  "trip to New York",
			terms:  []string{"trip", "new", "york"},
			ngrams: []string{"trip to new", "new york", "trip", "new", "york"},
		},
		{
			name:   "only stopwords",
			query:  "what is it?",
			terms:  nil,
			ngrams: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := analyse(tt.query, ref, nil)
			if !slices.Equal(a.Terms, tt.terms) {
				t.Errorf("Terms = %q, want %q", a.Terms, tt.terms)
			}
			if !slices.Equal(a.NGrams, tt.ngrams) {
				t.Errorf("NGrams = %q, want %q", a.NGrams, tt.ngrams)
			}
			if a.FirstPerson != tt.firstPerson {
				t.Errorf("FirstPerson = %v, want %v", a.FirstPerson, tt.firstPerson)
			}
		})
	}
}

func TestAnalyseBoundsNGrams(t *testing.T) {
	var ws []string
	for i := range 202 {
		ws = append(ws, fmt.Sprintf("word%d", i))
	}
	a := analyse(strings.Join(ws, " "), time.Time{}, nil)
	if len(a.NGrams) != maxNGrams {
		t.Fatalf("len(NGrams) = %d, want %d", len(a.NGrams), maxNGrams)
	}
	if len(a.Terms) != 202 {
		t.Fatalf("len(Terms) = %d, want every one of the 202 content words", len(a.Terms))
	}
}

func TestAnalyseTimeSpans(t *testing.T) {
	ref := time.Date(2023, 5, 20, 12, 0, 0, 0, time.UTC)
	var gotRef time.Time
	parse := func(text string, r time.Time) []TimeSpan {
		gotRef = r
		return []TimeSpan{{Text: "last week", Start: r.AddDate(0, 0, -7), End: r}}
	}
	a := analyse("what did I do last week", ref, parse)
	if !gotRef.Equal(ref) {
		t.Fatalf("parser got ref %v, want %v", gotRef, ref)
	}
	if len(a.Spans) != 1 || a.Spans[0].Text != "last week" {
		t.Fatalf("Spans = %+v, want one span for last week", a.Spans)
	}
}

func TestStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"parties", "party"},
		{"classes", "class"},
		{"painting", "paint"},
		{"moved", "mov"},
		{"kids", "kid"},
		{"glass", "glass"},
		{"bus", "bus"},
		{"this", "this"},
		{"ring", "ring"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := stem(tt.in); got != tt.want {
				t.Fatalf("stem(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseTimeUsesTemporal(t *testing.T) {
	ref := time.Date(2023, 5, 20, 12, 0, 0, 0, time.UTC)
	spans := parseTime("what did Caroline do yesterday?", ref)
	if len(spans) != 1 {
		t.Fatalf("spans = %+v, want one", spans)
	}
	if want := time.Date(2023, 5, 19, 0, 0, 0, 0, time.UTC); !spans[0].Start.Equal(want) {
		t.Fatalf("start = %v, want %v", spans[0].Start, want)
	}
}
