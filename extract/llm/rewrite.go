package llm

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/lore-memory/lore"
)

// RewritePromptVersion names the prompt in prompts/rewrite-<version>/.
const RewritePromptVersion = "rewrite-v1"

// RewriteTemperature is the sampling temperature of a rewrite: low, so the
// model stays close to the query.
const RewriteTemperature = 0.3

// DefaultRewriteTimeout bounds one rewrite call; a search waits for it.
const DefaultRewriteTimeout = 2 * time.Second

//go:embed prompts/rewrite-v1/system.md
var rewriteSystem string

// Rewriter rewrites search queries with what the user's profile implies
// (retrieve.QueryRewriter). It makes one call per query, with no retry: on
// any error or a timeout the caller keeps the original query.
type Rewriter struct {
	client  *openai.Client
	model   string
	timeout time.Duration
}

// NewRewriter returns a Rewriter for cfg's endpoint and model; of cfg it
// uses BaseURL, APIKey, Model, HTTPClient and Timeout (0: DefaultRewriteTimeout).
func NewRewriter(cfg Config) (*Rewriter, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" || strings.TrimSpace(cfg.Model) == "" {
		return nil, lore.Errorf(lore.EINVALID, "llm: the query rewrite needs a base URL and a model (LORE_LLM_BASE_URL, LORE_LLM_MODEL)")
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	t := cfg.Timeout
	if t <= 0 {
		t = DefaultRewriteTimeout
	}
	return &Rewriter{client: openai.NewClientWithConfig(oc), model: strings.TrimSpace(cfg.Model), timeout: t}, nil
}

// RewriteQuery returns the query rewritten with the profile. An empty
// profile returns the query without a call.
func (w *Rewriter) RewriteQuery(ctx context.Context, query string, profile []lore.ProfileEntry) (string, error) {
	if len(profile) == 0 {
		return query, nil
	}
	ctx, cancel := context.WithTimeout(ctx, w.timeout)
	defer cancel()
	resp, err := w.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:       w.model,
		Temperature: RewriteTemperature,
		MaxTokens:   200,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: strings.TrimSpace(rewriteSystem)},
			{Role: openai.ChatMessageRoleUser, Content: RewriteInput(query, profile)},
		},
	})
	if err != nil {
		return "", fmt.Errorf("llm: rewrite: %w", err)
	}
	if len(resp.Choices) == 0 {
		return "", lore.Errorf(lore.EINTERNAL, "llm: rewrite: no choice in the reply")
	}
	out := strings.TrimSpace(strings.Trim(strings.TrimSpace(resp.Choices[0].Message.Content), `"`))
	if out == "" || strings.Contains(out, "\n") || len(out) > 4*len(query)+200 {
		return "", lore.Errorf(lore.EINTERNAL, "llm: rewrite: the reply is not one query line")
	}
	return out, nil
}

// RewriteInput renders the user message of a rewrite: the profile, one
// entry a line, then the query.
func RewriteInput(query string, profile []lore.ProfileEntry) string {
	var b strings.Builder
	b.WriteString("Profile:\n")
	for _, e := range profile {
		how := "stated"
		if e.Source == lore.ProfileInferred {
			how = fmt.Sprintf("inferred, confidence %.2f", e.Confidence)
		}
		fmt.Fprintf(&b, "- %s: %s (%s)\n", strings.ReplaceAll(e.Key, "_", " "), e.Value, how)
	}
	b.WriteString("\nQuery: " + query)
	return b.String()
}

// RewriteSystemPrompt is the system prompt of RewritePromptVersion, for
// tests and fixtures.
func RewriteSystemPrompt() string { return strings.TrimSpace(rewriteSystem) }
