package llm

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/lore-memory/lore"
)

// ProfilePromptVersion names the prompt in prompts/profile-<version>/. A
// change to the prompt is a new version (and new replay fixtures).
const ProfilePromptVersion = "profile-v1"

// DefaultProfileTimeout bounds one batch inference call. It runs on the job
// queue, never in a search, so it may take its time.
const DefaultProfileTimeout = 60 * time.Second

//go:embed prompts/profile-v1/system.md
var profileSystem string

// ProfileInferrer reads what a batch of a user's search queries shows about
// them (ingest.ProfileInferrer): one call per batch, at temperature 0, the
// reply a JSON object of entries with a confidence and the queries that
// support each. Entries under lore.ProfileFloor, with an unknown key shape,
// or citing no query of the batch are dropped here; the store's precedence
// rules decide the rest.
type ProfileInferrer struct {
	client  *openai.Client
	model   string
	timeout time.Duration
}

// NewProfileInferrer returns a ProfileInferrer for cfg's endpoint and
// model; of cfg it uses BaseURL, APIKey, Model, HTTPClient and Timeout (0:
// DefaultProfileTimeout).
func NewProfileInferrer(cfg Config) (*ProfileInferrer, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" || strings.TrimSpace(cfg.Model) == "" {
		return nil, lore.Errorf(lore.EINVALID, "llm: profile inference needs a base URL and a model (LORE_LLM_BASE_URL, LORE_LLM_MODEL)")
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	}
	t := cfg.Timeout
	if t <= 0 {
		t = DefaultProfileTimeout
	}
	return &ProfileInferrer{client: openai.NewClientWithConfig(oc), model: strings.TrimSpace(cfg.Model), timeout: t}, nil
}

// InferProfile asks the model what queries show about their user, given
// the profile it has. No queries: no call, nothing.
func (p *ProfileInferrer) InferProfile(ctx context.Context, queries []string, current []lore.ProfileEntry) ([]lore.QuerySignal, error) {
	if len(queries) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	resp, err := p.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:          p.model,
		Temperature:    0,
		MaxTokens:      800,
		ResponseFormat: &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject},
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: ProfileSystemPrompt()},
			{Role: openai.ChatMessageRoleUser, Content: ProfileInput(queries, current)},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("llm: profile inference: %w", err)
	}
	if len(resp.Choices) == 0 {
		return nil, lore.Errorf(lore.EINTERNAL, "llm: profile inference: no choice in the reply")
	}
	return ParseProfileReply(resp.Choices[0].Message.Content, len(queries))
}

// ParseProfileReply reads a profile-v1 reply about n queries: entries
// below lore.ProfileFloor, with a key that is not a documented one, an
// empty value, or citing no query in 1..n are dropped; query numbers become
// 0-based indexes.
func ParseProfileReply(text string, n int) ([]lore.QuerySignal, error) {
	text = strings.TrimSpace(text)
	text = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(text, "```json"), "```"), "```")
	var r struct {
		Entries []struct {
			Key        string   `json:"key"`
			Value      string   `json:"value"`
			Confidence *float64 `json:"confidence"`
			Queries    []int    `json:"queries"`
		} `json:"entries"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &r); err != nil {
		return nil, lore.Errorf(lore.EINTERNAL, "llm: profile inference: the reply is not the JSON asked for: %v", err)
	}
	var out []lore.QuerySignal
	for _, e := range r.Entries {
		if e.Confidence == nil || *e.Confidence < lore.ProfileFloor || *e.Confidence > 1 || strings.TrimSpace(e.Value) == "" || !documentedKey(e.Key) {
			continue
		}
		var qs []int
		for _, q := range e.Queries {
			if q >= 1 && q <= n {
				qs = append(qs, q-1)
			}
		}
		if len(qs) == 0 {
			continue
		}
		out = append(out, lore.QuerySignal{Key: e.Key, Value: strings.TrimSpace(e.Value), Confidence: *e.Confidence, Queries: qs})
	}
	return out, nil
}

// documentedKey reports whether key is one of profile_keys.txt's, or
// level_<activity> for its level_* row.
func documentedKey(key string) bool {
	for _, k := range lore.ProfileKeys() {
		if base, prefix := strings.CutSuffix(k.Key, "*"); prefix {
			if rest, ok := strings.CutPrefix(key, base); ok && rest != "" && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyz_") == "" {
				return true
			}
		} else if k.Key == key {
			return true
		}
	}
	return false
}

// ProfileInput renders the user message of a profile inference: the keys,
// the current profile, then the numbered queries.
func ProfileInput(queries []string, current []lore.ProfileEntry) string {
	var b strings.Builder
	b.WriteString("Profile keys:\n")
	for _, k := range lore.ProfileKeys() {
		fmt.Fprintf(&b, "- %s: %s\n", k.Key, k.About)
	}
	b.WriteString("\nProfile now:\n")
	if len(current) == 0 {
		b.WriteString("(empty)\n")
	}
	for _, e := range current {
		how := "stated"
		if e.Source == lore.ProfileInferred {
			how = fmt.Sprintf("inferred, confidence %.2f", e.Confidence)
		}
		fmt.Fprintf(&b, "- %s: %s (%s)\n", e.Key, e.Value, how)
	}
	b.WriteString("\nSearches:\n")
	for i, q := range queries {
		fmt.Fprintf(&b, "[%d] %s\n", i+1, strings.Join(strings.Fields(q), " "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// ProfileSystemPrompt is the system prompt of ProfilePromptVersion.
func ProfileSystemPrompt() string { return strings.TrimSpace(profileSystem) }
