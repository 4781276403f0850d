package retrieve

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRuleIntents(t *testing.T) {
	cases := []struct {
		query string
		want  Intent
	}{
		{"Where does my sister live?", IntentFactual},
		{"When did Caroline go to the LGBTQ support group?", IntentFactual},
		{"How many kids does Melanie have?", IntentFactual},
		{"Is Emma still in Rome?", IntentFactual},
		{"What did you recommend for my back pain?", IntentConversational},
		{"Did I ever mention my allergy?", IntentConversational},
		{"Remind me what we talked about in our last conversation", IntentConversational},
		{"What does the onboarding document say about laptops?", IntentDocumentary},
		{"According to the spec, what port does it use?", IntentDocumentary},
		{"Tell me about Emma", IntentExploratory},
		{"What are some ideas for Mom's birthday?", IntentExploratory},
		{"How might I plan the trip to Japan?", IntentExploratory},
		{"cello", IntentUnknown},
		{"Paris trip 2024", IntentUnknown},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			got := DefaultIntentRules().Classify(context.Background(), c.query)
			if got.Intent != c.want {
				t.Fatalf("Classify(%q) = %s by %s, want %s", c.query, got.Intent, got.By, c.want)
			}
			if c.want == IntentUnknown && got.By != "none" || c.want != IntentUnknown && !strings.HasPrefix(got.By, "rule:") {
				t.Fatalf("Classify(%q).By = %q", c.query, got.By)
			}
		})
	}
}

func TestParseIntentRulesErrors(t *testing.T) {
	for name, data := range map[string]string{
		"unknown intent":        "CHATTY hello",
		"no regex":              "FACTUAL",
		"bad regex":             "FACTUAL (",
		"unknown is not a rule": "UNKNOWN x",
	} {
		if _, err := ParseIntentRules(data); err == nil {
			t.Errorf("%s: ParseIntentRules(%q) succeeded, want an error", name, data)
		}
	}
	r, err := ParseIntentRules("# comment\n\nexploratory\tideas\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Classify(context.Background(), "IDEAS please"); got.Intent != IntentExploratory || got.By != "rule:3" {
		t.Fatalf("got %+v, want EXPLORATORY by rule:3", got)
	}
}

// fakeChat is an OpenAI-compatible chat endpoint answering reply after
// delay, counting calls.
func fakeChat(t *testing.T, reply string, status int, delay time.Duration) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "m" || len(req.Messages) != 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		if status != http.StatusOK {
			http.Error(w, "down", status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": reply}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestLLMIntent(t *testing.T) {
	cases := []struct {
		name   string
		reply  string
		status int
		delay  time.Duration
		want   IntentResult
	}{
		{"answers", "EXPLORATORY", 200, 0, IntentResult{IntentExploratory, "llm"}},
		{"lower case with a period", "documentary.", 200, 0, IntentResult{IntentDocumentary, "llm"}},
		{"not an intent", "I think it is a question", 200, 0, IntentResult{IntentUnknown, "llm:failed"}},
		{"server error", "", 500, 0, IntentResult{IntentUnknown, "llm:failed"}},
		{"too slow", "FACTUAL", 200, 2 * time.Second, IntentResult{IntentUnknown, "llm:failed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, calls := fakeChat(t, c.reply, c.status, c.delay)
			cl, err := NewIntentClassifier(IntentLLM, nil, LLMIntentConfig{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			got := cl.Classify(context.Background(), "cello")
			if got != c.want {
				t.Fatalf("Classify = %+v, want %+v", got, c.want)
			}
			if calls.Load() != 1 {
				t.Fatalf("calls = %d, want 1", calls.Load())
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("Classify took %v with a 100 ms timeout", d)
			}
		})
	}
}

func TestHybridIntentAsksOnlyWithoutARule(t *testing.T) {
	srv, calls := fakeChat(t, "EXPLORATORY", 200, 0)
	cl, err := NewIntentClassifier(IntentHybrid, nil, LLMIntentConfig{BaseURL: srv.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if got := cl.Classify(context.Background(), "Where does my sister live?"); got.Intent != IntentFactual || calls.Load() != 0 {
		t.Fatalf("rule query: got %+v after %d calls, want FACTUAL by a rule and no call", got, calls.Load())
	}
	if got := cl.Classify(context.Background(), "cello"); got != (IntentResult{IntentExploratory, "llm"}) || calls.Load() != 1 {
		t.Fatalf("no-rule query: got %+v after %d calls, want EXPLORATORY by llm after 1 call", got, calls.Load())
	}
}

func TestNewIntentClassifierErrors(t *testing.T) {
	if _, err := NewIntentClassifier("magic", nil, LLMIntentConfig{}); err == nil {
		t.Error("unknown strategy accepted")
	}
	if _, err := NewIntentClassifier(IntentLLM, nil, LLMIntentConfig{}); err == nil {
		t.Error("llm strategy without an endpoint accepted")
	}
}
