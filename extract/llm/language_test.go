package llm

import (
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestPromptKeepsUserLanguage: a batch with Chinese messages asks for facts
// in the user's language; an English batch's prompt is as before (its
// recorded replies stay valid).
func TestPromptKeepsUserLanguage(t *testing.T) {
	x, err := New(Config{BaseURL: "http://127.0.0.1:1", Model: "m"})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	at := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		content string
		want    bool
	}{
		{"我住在台北，在台積電當工程師。", true},
		{"我在Google工作", true},
		{"I live in Paris and I work at Google. Café au lait!", false},
	} {
		req := lore.ExtractRequest{Episodes: []*lore.Episode{{ID: "e", Role: "user", Content: tt.content, OccurredAt: at}}}
		batches := x.plan(req, newUserInfo(req))
		if len(batches) != 1 {
			t.Fatalf("plan(%q): %d batches, want 1", tt.content, len(batches))
		}
		if got := strings.Contains(batches[0].prompt, "Keep the user's language"); got != tt.want {
			t.Errorf("prompt for %q asks for the user's language: %v, want %v\n%s", tt.content, got, tt.want, batches[0].prompt)
		}
		if !strings.HasSuffix(batches[0].prompt, "\n") && !tt.want {
			t.Errorf("English prompt lost its final newline:\n%q", batches[0].prompt)
		}
	}
}
