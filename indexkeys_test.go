package lore

import (
	"strings"
	"testing"
)

func TestFactKey(t *testing.T) {
	tests := []struct {
		name string
		f    *Fact
		want string
	}{
		{"adds what the sentence lacks", &Fact{Text: "She moved there in May", Subject: "Caroline", Predicate: "lives_in", Object: "Boston"}, "She moved there in May | Caroline | lives in | Boston"},
		{"skips what it says", &Fact{Text: "Caroline lives in Boston", Subject: "Caroline", Predicate: "lives_in", Object: "Boston"}, "Caroline lives in Boston"},
		{"no sentence", &Fact{Subject: "Mel", Predicate: "likes", Object: "pottery"}, "Mel | likes | pottery"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FactKey(tt.f); got != tt.want {
				t.Fatalf("FactKey = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEpisodeKey(t *testing.T) {
	ep := &Episode{Speaker: "Caroline", Content: "I went there yesterday. [image: a rainbow flag]"}
	question := &Episode{Speaker: "Melanie", Content: "Where did you go?"}
	long := &Episode{Speaker: "Melanie", Content: strings.Repeat("blah ", 100) + "so where did you go?"}
	tests := []struct {
		name  string
		prev  *Episode
		facts []*Fact
		want  string
	}{
		{"before extraction", nil, nil, "Caroline: I went there yesterday. [image: a rainbow flag]"},
		{"with the question it answers", question, nil, "Caroline: I went there yesterday. [image: a rainbow flag]\nWhere did you go?"},
		{"the same speaker's turn before is not kept", &Episode{Speaker: "caroline", Content: "Guess what."}, nil,
			"Caroline: I went there yesterday. [image: a rainbow flag]"},
		{"only the end of a long turn, from a word", long, nil,
			"Caroline: I went there yesterday. [image: a rainbow flag]\n" + strings.Repeat("blah ", 56) + "so where did you go?"},
		{"an assistant's reply: only its last question", &Episode{Role: "assistant", Content: "Sure! Draft: \"Toolbox for sale, fits F-150. Pickup in Lubbock.\" Do you know the brand? Those help it sell."}, nil,
			"Caroline: I went there yesterday. [image: a rainbow flag]\nDo you know the brand?"},
		{"no question: the last sentence", &Episode{Speaker: "Melanie", Content: "We went to Rome. It was lovely."}, nil,
			"Caroline: I went there yesterday. [image: a rainbow flag]\nIt was lovely."},
		{"with facts, deduplicated", nil, []*Fact{{Text: "Caroline attended the support group on 2023-05-07"}, {Text: "Caroline attended the support group on 2023-05-07"}, {Text: " "}},
			"Caroline: I went there yesterday. [image: a rainbow flag]\nCaroline attended the support group on 2023-05-07"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EpisodeKey(ep, tt.prev, tt.facts); got != tt.want {
				t.Fatalf("EpisodeKey = %q, want %q", got, tt.want)
			}
		})
	}
	if got := EpisodeKey(&Episode{Content: "hi"}, nil, nil); got != "hi" {
		t.Fatalf("EpisodeKey without speaker = %q, want %q", got, "hi")
	}
}

func TestReplies(t *testing.T) {
	sc := Scope{TenantID: "t", UserID: "u"}
	ep := func(sc Scope, role, speaker string) *Episode {
		return &Episode{Scope: sc, Role: role, Speaker: speaker}
	}
	tests := []struct {
		name string
		a, b *Episode
		want bool
	}{
		{"user then assistant", ep(sc, "user", ""), ep(sc, "assistant", ""), true},
		{"two named speakers", ep(sc, "user", "Ann"), ep(sc, "user", "Bea"), true},
		{"same speaker twice", ep(sc, "user", "Ann"), ep(sc, "user", "ann"), false},
		{"user twice, no names", ep(sc, "user", ""), ep(sc, "user", ""), false},
		{"another run", ep(sc, "user", "Ann"), ep(Scope{TenantID: "t", UserID: "u", RunID: "r2"}, "user", "Bea"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Replies(tt.a, tt.b); got != tt.want {
				t.Errorf("Replies = %v, want %v", got, tt.want)
			}
		})
	}
}
