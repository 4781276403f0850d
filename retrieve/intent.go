package retrieve

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Intent is what a query asks for, as the intent classifier reads it. The
// per-intent weight adjustments (intentweights.go) key on it.
type Intent string

// The intents of issue 14. UNKNOWN is a query no rule matched (regex), or
// one the model did not answer in time (llm, hybrid).
const (
	IntentFactual        Intent = "FACTUAL"
	IntentConversational Intent = "CONVERSATIONAL"
	IntentDocumentary    Intent = "DOCUMENTARY"
	IntentExploratory    Intent = "EXPLORATORY"
	IntentUnknown        Intent = "UNKNOWN"
)

// Intents lists every intent, UNKNOWN last.
var intents = []Intent{IntentFactual, IntentConversational, IntentDocumentary, IntentExploratory, IntentUnknown}

// Intent strategies for the intent classifier (NewIntentClassifier).
const (
	IntentRegex  = "regex"  // the rules of intent.txt (default)
	IntentLLM    = "llm"    // an OpenAI-compatible chat model for every query
	IntentHybrid = "hybrid" // the rules, and the model only when no rule matches
)

// IntentResult is a query's intent and what decided it: "rule:<n>" for
// line n of the rule file, "llm", "llm:failed" (the call failed or was too
// slow), or "none" (no rule matched and no model was asked).
type IntentResult struct {
	Intent Intent `json:"intent"`
	By     string `json:"by"`
}

// IntentClassifier reads a query's intent. Classify never fails: whatever
// it cannot decide is UNKNOWN.
type IntentClassifier interface {
	Classify(ctx context.Context, query string) IntentResult
}

// intentData is the default rule file; intent.txt says where it comes from.
//
//go:embed intent.txt
var intentData string

// defaultIntentRules is intent.txt compiled once; it is never changed.
var defaultIntentRules = mustIntentRules(intentData)

func mustIntentRules(data string) *RuleClassifier {
	r, err := ParseIntentRules(data)
	if err != nil {
		panic(err)
	}
	return r
}

// intentRule is one line of a rule file.
type intentRule struct {
	intent Intent
	re     *regexp.Regexp
	line   int
}

// RuleClassifier classifies by the first matching rule of a rule file.
type RuleClassifier struct {
	rules []intentRule
}

// DefaultIntentRules returns the classifier of the built-in rule file,
// retrieve/intent.txt.
func DefaultIntentRules() *RuleClassifier { return defaultIntentRules }

// ParseIntentRules reads a rule file in intent.txt's format: "INTENT regex"
// a line, '#' comments, matched case-insensitively, first match wins.
func ParseIntentRules(data string) (*RuleClassifier, error) {
	out := &RuleClassifier{}
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, expr, ok := strings.Cut(line, " ")
		if !ok {
			name, expr, ok = strings.Cut(line, "\t")
		}
		expr = strings.TrimSpace(expr)
		if !ok || expr == "" {
			return nil, fmt.Errorf("intent rules: line %d: want \"INTENT regex\"", i+1)
		}
		in, err := ParseIntent(name)
		if err != nil || in == IntentUnknown {
			return nil, fmt.Errorf("intent rules: line %d: unknown intent %q", i+1, name)
		}
		re, err := regexp.Compile("(?i)" + expr)
		if err != nil {
			return nil, fmt.Errorf("intent rules: line %d: %w", i+1, err)
		}
		out.rules = append(out.rules, intentRule{intent: in, re: re, line: i + 1})
	}
	return out, nil
}

// Classify returns the intent of the first rule matching the query, or
// UNKNOWN by "none".
func (r *RuleClassifier) Classify(_ context.Context, query string) IntentResult {
	if res, ok := r.match(query); ok {
		return res
	}
	return IntentResult{Intent: IntentUnknown, By: "none"}
}

func (r *RuleClassifier) match(query string) (IntentResult, bool) {
	for _, rule := range r.rules {
		if rule.re.MatchString(query) {
			return IntentResult{Intent: rule.intent, By: fmt.Sprintf("rule:%d", rule.line)}, true
		}
	}
	return IntentResult{}, false
}

// ParseIntent reads an intent name, any case.
func ParseIntent(s string) (Intent, error) {
	up := Intent(strings.ToUpper(strings.TrimSpace(s)))
	for _, in := range intents {
		if in == up {
			return in, nil
		}
	}
	return IntentUnknown, fmt.Errorf("unknown intent %q", s)
}

// LLMIntentConfig is the OpenAI-compatible chat endpoint the llm and hybrid
// strategies ask.
type LLMIntentConfig struct {
	BaseURL string // e.g. http://127.0.0.1:8000/v1
	Model   string
	APIKey  string // optional
	// Timeout bounds one call; a slower answer counts as UNKNOWN. 0: 500 ms.
	Timeout time.Duration
	Client  *http.Client // nil: http.DefaultClient
}

// LLMClassifier asks a chat model for the intent. The prompt is Lore's own.
type LLMClassifier struct {
	cfg LLMIntentConfig
}

// NewLLMClassifier returns a classifier over the endpoint cfg names.
func NewLLMClassifier(cfg LLMIntentConfig) (*LLMClassifier, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, fmt.Errorf("intent llm: base URL and model are required")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 500 * time.Millisecond
	}
	if cfg.Client == nil {
		cfg.Client = http.DefaultClient
	}
	return &LLMClassifier{cfg: cfg}, nil
}

const intentPrompt = `You sort questions put to a personal memory store into one class.
FACTUAL: asks for one fact (a name, place, date, number, yes or no).
CONVERSATIONAL: asks what was said or discussed in an earlier conversation.
DOCUMENTARY: asks about a document, file, note, link or other written source.
EXPLORATORY: asks for an overview, a summary, ideas or everything about a topic.
UNKNOWN: none of these.
Reply with the class name only.`

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
	MaxTokens   int           `json:"max_tokens"`
}

type chatResponse struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

// Classify asks the model; an error, a timeout or an answer that names no
// intent gives UNKNOWN by "llm:failed".
func (l *LLMClassifier) Classify(ctx context.Context, query string) IntentResult {
	in, err := l.ask(ctx, query)
	if err != nil {
		return IntentResult{Intent: IntentUnknown, By: "llm:failed"}
	}
	return IntentResult{Intent: in, By: "llm"}
}

func (l *LLMClassifier) ask(ctx context.Context, query string) (Intent, error) {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.Timeout)
	defer cancel()
	body, err := json.Marshal(chatRequest{Model: l.cfg.Model, Temperature: 0, MaxTokens: 8, Messages: []chatMessage{
		{Role: "system", Content: intentPrompt}, {Role: "user", Content: query},
	}})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(l.cfg.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	if l.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+l.cfg.APIKey)
	}
	resp, err := l.cfg.Client.Do(req)
	if err != nil {
		return "", fmt.Errorf("intent llm: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("intent llm: status %d", resp.StatusCode)
	}
	var cr chatResponse
	if err := json.NewDecoder(resp.Body).Decode(&cr); err != nil {
		return "", fmt.Errorf("intent llm: decode: %w", err)
	}
	if len(cr.Choices) == 0 {
		return "", fmt.Errorf("intent llm: no choices")
	}
	word := strings.Trim(strings.Fields(cr.Choices[0].Message.Content + " x")[0], ".:;,\"'`*")
	return ParseIntent(word)
}

// HybridClassifier reads the rules first and asks the model only for a
// query no rule matches.
type HybridClassifier struct {
	Rules *RuleClassifier
	LLM   IntentClassifier
}

// Classify returns the matching rule's intent, or the model's.
func (h *HybridClassifier) Classify(ctx context.Context, query string) IntentResult {
	if res, ok := h.Rules.match(query); ok {
		return res
	}
	return h.LLM.Classify(ctx, query)
}

// NewIntentClassifier builds the classifier of a strategy: regex (or ""),
// llm or hybrid. rules nil means the built-in intent.txt.
func NewIntentClassifier(strategy string, rules *RuleClassifier, llm LLMIntentConfig) (IntentClassifier, error) {
	if rules == nil {
		rules = defaultIntentRules
	}
	switch strategy {
	case "", IntentRegex:
		return rules, nil
	case IntentLLM, IntentHybrid:
		l, err := NewLLMClassifier(llm)
		if err != nil {
			return nil, err
		}
		if strategy == IntentLLM {
			return l, nil
		}
		return &HybridClassifier{Rules: rules, LLM: l}, nil
	}
	return nil, fmt.Errorf("intent strategy %q: want regex, llm or hybrid", strategy)
}

// classify reads the request's intent when something uses it: explain
// shows it, the per-intent weights (Personal.Intents) read it. It returns
// nil otherwise, so an unused LLM is never asked.
func (p *Pipeline) classify(ctx context.Context, req Request) *IntentResult {
	if !req.Explain && !(p.Config.Personal.Intents && p.Feedback != nil && p.Config.Personal.active()) {
		return nil
	}
	cl := p.Intent
	if cl == nil {
		cl = defaultIntentRules
	}
	r := cl.Classify(ctx, req.Query)
	return &r
}
