package llm

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

func TestEstimateTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"empty", "", 0},
		{"one ASCII byte rounds up", "a", 1},
		{"three ASCII bytes", "abc", 1},
		{"English sentence", "I moved to Lisbon last month.", 10},
		{"non-ASCII counts per character", "Zürich", 2 + 1},
		{"CJK", "東京都", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := estimateTokens(tt.in); got != tt.want {
				t.Errorf("estimateTokens(%q)=%d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func quiet() *slog.Logger { return slog.New(slog.DiscardHandler) }

// longEpisodes returns n user episodes of about 300 bytes each.
func longEpisodes(scope lore.Scope, n int) []*lore.Episode {
	eps := make([]*lore.Episode, n)
	for i := range eps {
		eps[i] = &lore.Episode{
			ID: fmt.Sprintf("ep-%d", i+1), Scope: scope, Role: "user", Speaker: "Dana",
			OccurredAt: time.Date(2024, 1, 1, 10, i, 0, 0, time.UTC),
			Content:    fmt.Sprintf("Message %d. ", i+1) + strings.Repeat("Some detail about my week. ", 11),
		}
	}
	return eps
}

func TestPlanTokenBudget(t *testing.T) {
	x, err := New(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", Logger: quiet()})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	scope := lore.Scope{TenantID: "t", UserID: "dana"}
	eps := longEpisodes(scope, 6)
	user := newUserInfo(lore.ExtractRequest{Scope: scope, Episodes: eps})
	fixed := estimateTokens(x.system) + estimateTokens(string(x.schema)) + promptOverhead
	per := estimateTokens(messageLine(1, eps[0], user)) + 4
	var cands []*lore.Fact
	for i := range 40 {
		cands = append(cands, &lore.Fact{ID: fmt.Sprintf("f%d", i), Text: fmt.Sprintf("Dana visited museum number %d.", i)})
	}

	tests := []struct {
		name      string
		budget    int
		facts     []*lore.Fact
		wantSizes []int
		capped    bool // candidate facts are cut to a prefix within half the room
	}{
		{name: "everything fits", budget: DefaultMaxTokensPerCall, wantSizes: []int{6}},
		{name: "two messages per call", budget: fixed + 2*per + per/2, wantSizes: []int{2, 2, 2}},
		{name: "oversized messages go alone", budget: fixed + per/2, wantSizes: []int{1, 1, 1, 1, 1, 1}},
		{name: "candidates capped at half the room", budget: fixed + 4*per, facts: cands, wantSizes: []int{2, 2, 2}, capped: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x.cfg.MaxTokensPerCall = tt.budget
			req := lore.ExtractRequest{Scope: scope, Episodes: eps, Facts: tt.facts}
			batches := x.plan(req, user)
			var sizes []int
			next := 0
			for _, b := range batches {
				sizes = append(sizes, len(b.episodes))
				for j, ep := range b.episodes {
					if ep != eps[next] {
						t.Errorf("batch message %d is %s, want %s: order lost", j+1, ep.ID, eps[next].ID)
					}
					next++
					if !strings.Contains(b.prompt, fmt.Sprintf("[%d] Mon 2024-01-01", j+1)) {
						t.Errorf("prompt lacks local handle [%d]:\n%s", j+1, b.prompt)
					}
				}
				if total := estimateTokens(x.system) + estimateTokens(string(x.schema)) + estimateTokens(b.prompt); len(b.episodes) > 1 && total > tt.budget {
					t.Errorf("batch of %d estimates %d tokens, over the budget of %d", len(b.episodes), total, tt.budget)
				}
				if !tt.capped {
					if len(b.facts) != len(tt.facts) {
						t.Errorf("candidate facts shown=%d, want all %d", len(b.facts), len(tt.facts))
					}
					continue
				}
				cost := 0
				for h := 1; h <= len(b.facts); h++ {
					if !b.facts[h] {
						t.Errorf("candidate fact %d left out while a later one is shown, want a prefix", h)
					}
					cost += estimateTokens(tt.facts[h-1].Text) + 8
				}
				if len(b.facts) == 0 || len(b.facts) == len(tt.facts) || cost > (tt.budget-fixed)/2 {
					t.Errorf("candidate facts shown=%d of %d costing %d, want some, not all, within %d", len(b.facts), len(tt.facts), cost, (tt.budget-fixed)/2)
				}
			}
			if next != len(eps) {
				t.Errorf("batches cover %d messages, want %d", next, len(eps))
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tt.wantSizes) {
				t.Errorf("batch sizes=%v, want %v", sizes, tt.wantSizes)
			}
		})
	}
}

func TestExtractSplitBatches(t *testing.T) {
	srv := llmtest.New(t, "")
	scope := lore.Scope{TenantID: "t", UserID: "dana"}
	eps := longEpisodes(scope, 4)
	x, err := New(Config{BaseURL: srv.URL, Model: "m", Logger: quiet()})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	user := newUserInfo(lore.ExtractRequest{Scope: scope, Episodes: eps})
	x.cfg.MaxTokensPerCall = estimateTokens(x.system) + estimateTokens(string(x.schema)) + promptOverhead +
		2*(estimateTokens(messageLine(1, eps[0], user))+4) + 10

	// Both calls name message 1 and mention Lisbon: the handles are local to
	// each call, and the entity is reported once.
	first := `{"entities": [{"name": "Lisbon", "type": "place", "aliases": ["Lisboa"], "candidate": 0}], "facts": [
		{"subject": "user", "predicate": "visited", "object": "Lisbon", "object_is_entity": true, "fact": "Dana visited Lisbon.", "valid_at": "", "invalid_at": "", "confidence": 0.9, "messages": [2], "resolution": "new", "candidate_fact": 0}], "profile": []}`
	second := `{"entities": [{"name": "Lisbon", "type": "place", "aliases": ["LIS"], "candidate": 0}], "facts": [
		{"subject": "user", "predicate": "plans_to_visit", "object": "Lisbon", "object_is_entity": true, "fact": "Dana plans to visit Lisbon again.", "valid_at": "", "invalid_at": "", "confidence": 0.9, "messages": [1], "resolution": "new", "candidate_fact": 0}], "profile": []}`
	srv.Then(llmtest.Behavior{Reply: &first}, llmtest.Behavior{Reply: &second})

	ext, err := x.Extract(context.Background(), lore.ExtractRequest{Scope: scope, Episodes: eps})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests=%d, want 2", len(reqs))
	}
	for i, r := range reqs {
		for j, ep := range eps {
			in := strings.Contains(r.Messages[1].Content, ep.Content)
			if want := j/2 == i; in != want {
				t.Errorf("call %d holds message %s: %v, want %v", i+1, ep.ID, in, want)
			}
		}
	}
	if len(ext.Facts) != 2 {
		t.Fatalf("facts=%+v, want 2", ext.Facts)
	}
	for _, tt := range []struct {
		predicate, episode string
	}{{"visited", "ep-2"}, {"plans_to_visit", "ep-3"}} {
		var got []string
		for _, f := range ext.Facts {
			if f.Predicate == tt.predicate {
				got = f.EpisodeIDs
			}
		}
		if len(got) != 1 || got[0] != tt.episode {
			t.Errorf("%s episode ids=%q, want [%s]", tt.predicate, got, tt.episode)
		}
	}
	if len(ext.Entities) != 1 || fmt.Sprint(ext.Entities[0].Aliases) != "[Lisboa LIS]" {
		t.Errorf("entities=%+v, want one Lisbon with aliases [Lisboa LIS]", ext.Entities)
	}
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string // substring; "" for success
	}{
		{"object", `{"entities": [], "facts": []}`, ""},
		{"code fence", "```json\n{\"entities\": [], \"facts\": [], \"profile\": []}\n```", ""},
		{"reasoning block", "<think>The user moved.</think>\n{\"entities\": [], \"facts\": []}", ""},
		{"reasoning block and fence", "<think>hm</think>\n```json\n{\"entities\": [], \"facts\": []}\n```", ""},
		{"unclosed reasoning block", "<think>hm {\"entities\": [], \"facts\": []}", "invalid JSON"},
		{"empty", "  ", "empty"},
		{"prose", "Here you go", "invalid JSON"},
		{"trailing text", `{"entities": [], "facts": []} thanks`, "invalid JSON"},
		{"two objects", `{"entities": [], "facts": []}{"entities": [], "facts": []}`, "invalid JSON"},
		{"truncated", `{"entities": [], "facts": [{"subject": "a"`, "invalid JSON"},
		{"missing facts", `{"entities": []}`, `no "facts"`},
		{"missing entities", `{"facts": []}`, `no "entities"`},
		{"wrong type", `{"entities": [], "facts": [{"messages": "1"}]}`, "invalid JSON"},
		{"array", `[]`, "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseReply(tt.in)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("parseReply: %v, want success", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("parseReply error=%v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestDate(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	ref := time.Date(2024, 3, 4, 9, 0, 0, 0, berlin)
	tests := []struct {
		name, in string
		want     *time.Time
		rejected bool
	}{
		{"empty", "", nil, false},
		{"null", "null", nil, false},
		{"day in the message's zone", "2024-02-01", ptr(time.Date(2024, 2, 1, 0, 0, 0, 0, berlin)), false},
		{"month", "2024-02", ptr(time.Date(2024, 2, 1, 0, 0, 0, 0, berlin)), false},
		{"year", "2019", ptr(time.Date(2019, 1, 1, 0, 0, 0, 0, berlin)), false},
		{"RFC 3339 keeps its zone", "2024-03-01T12:00:00Z", ptr(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)), false},
		{"plans a few years ahead", "2027-09-01", ptr(time.Date(2027, 9, 1, 0, 0, 0, 0, berlin)), false},
		{"before 1900", "1850-01-01", nil, true},
		{"far future", "2040-01-01", nil, true},
		{"prose", "last week", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &Extractor{log: quiet()}
			out := &lore.Extraction{}
			got := date(tt.in, ref, "fact 1", "valid_at", rejecter{x: x, out: out})
			switch {
			case (got == nil) != (tt.want == nil):
				t.Errorf("date(%q)=%v, want %v", tt.in, got, tt.want)
			case got != nil && !got.Equal(*tt.want):
				t.Errorf("date(%q)=%v, want %v", tt.in, *got, *tt.want)
			}
			if rejected := len(out.Rejected) > 0; rejected != tt.rejected {
				t.Errorf("rejected=%v (%q), want %v", rejected, out.Rejected, tt.rejected)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestNewRequiresEndpointAndModel(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no base URL", Config{Model: "m"}},
		{"no model", Config{BaseURL: "http://localhost:11434/v1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.cfg); lore.ErrorCode(err) != lore.EINVALID {
				t.Errorf("New error=%v, want code %s", err, lore.EINVALID)
			}
		})
	}
}
