package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

// oneMessage is a request of a single user message without candidates.
func oneMessage(user, speaker, content string, at time.Time) lore.ExtractRequest {
	scope := lore.Scope{TenantID: "acme", UserID: user}
	return lore.ExtractRequest{Scope: scope, Episodes: []*lore.Episode{
		{ID: "ep-" + user + "-1", Scope: scope, Role: "user", Speaker: speaker, Content: content, OccurredAt: at},
	}}
}

func TestExtractRepair(t *testing.T) {
	at := time.Date(2024, 5, 10, 18, 30, 0, 0, time.UTC)
	tests := []struct {
		name     string
		req      lore.ExtractRequest
		wantErr  string // error code; "" for success
		wantFact string // predicate of a fact that must be extracted
	}{
		{
			name:     "malformed then repaired",
			req:      oneMessage("bob", "Bob", "I adopted a cat named Miso yesterday.", at),
			wantFact: "has_pet",
		},
		{
			name:    "malformed twice",
			req:     oneMessage("carol", "Carol", "I run a marathon every spring.", at),
			wantErr: lore.EINTERNAL,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.FixtureDir())
			x, _ := newExtractor(t, srv)
			ext, err := x.Extract(context.Background(), tt.req)
			if got := lore.ErrorCode(err); got != tt.wantErr {
				t.Fatalf("error code=%q (%v), want %q", got, err, tt.wantErr)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("requests=%d, want 2 (the call and one repair)", len(reqs))
			}
			repair := reqs[1].Messages
			if len(repair) != 4 || repair[2].Role != "assistant" || repair[2].Content == "" || repair[3].Role != "user" ||
				!strings.Contains(repair[3].Content, "could not be read") {
				t.Errorf("repair request=%+v, want system, input, the broken reply and a repair request", repair)
			}
			if tt.wantErr != "" {
				if stats := x.Stats()["acme"]; stats.Failures != 1 || stats.Calls != 2 {
					t.Errorf("stats=%+v, want 1 failure after 2 calls", stats)
				}
				return
			}
			f := factBy(ext, tt.wantFact, "Miso")
			if f == nil {
				t.Fatalf("no %s fact in %+v", tt.wantFact, ext.Facts)
			}
			if f.ValidAt == nil || !f.ValidAt.Equal(time.Date(2024, 5, 9, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("valid_at=%v, want 2024-05-09 (yesterday of the message)", f.ValidAt)
			}
			// The repaired reply is cached under the original request.
			if _, err := x.Extract(context.Background(), tt.req); err != nil {
				t.Fatalf("second Extract: %v", err)
			}
			if got := len(srv.Requests()); got != 2 {
				t.Errorf("requests after re-extracting=%d, want still 2", got)
			}
		})
	}
}

func TestExtractRepairAfterCutOff(t *testing.T) {
	srv := llmtest.New(t, "")
	x, _ := newExtractor(t, srv, func(c *llm.Config) { c.MaxCompletionTokens = 64 })
	cut := `{"entities": [], "facts": [{"subject": "user", "predicate": "lives_in", "obj`
	whole := `{"entities": [], "facts": [` + goodFact + `], "profile": []}`
	srv.Then(llmtest.Behavior{Reply: &cut, FinishReason: "length"}, llmtest.Behavior{Reply: &whole})

	ext, err := x.Extract(context.Background(), conversation())
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if len(ext.Facts) != 1 {
		t.Errorf("facts=%+v, want the repaired reply's one", ext.Facts)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests=%d, want 2", len(reqs))
	}
	if got := reqs[1].Messages[3].Content; !strings.Contains(got, "cut off at the limit of 64 tokens") {
		t.Errorf("repair request=%q, want it to say the reply was cut off", got)
	}
}
