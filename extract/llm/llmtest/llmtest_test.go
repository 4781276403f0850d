package llmtest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lore-memory/lore/extract/llm/llmtest"
	openai "github.com/sashabaranov/go-openai"
)

func client(srv *llmtest.Server) *openai.Client {
	cfg := openai.DefaultConfig("k")
	cfg.BaseURL = srv.URL
	return openai.NewClientWithConfig(cfg)
}

func chat(model string, msgs ...llmtest.Message) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{Model: model}
	for _, m := range msgs {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	return req
}

func status(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	return 0
}

func TestReplay(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, "")
	hello := []llmtest.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "hello"}}
	srv.Add(llmtest.Fixture{Model: "m1", Messages: hello, Reply: `{"ok": true}`, PromptTokens: 7, CompletionTokens: 3})
	c := client(srv)

	resp, err := c.CreateChatCompletion(ctx, chat("m1", hello...))
	if err != nil {
		t.Fatalf("CreateChatCompletion: %v", err)
	}
	if got := resp.Choices[0].Message.Content; got != `{"ok": true}` {
		t.Errorf("reply=%q, want the fixture's", got)
	}
	if resp.Usage.PromptTokens != 7 || resp.Usage.CompletionTokens != 3 {
		t.Errorf("usage=%+v, want 7 prompt and 3 completion tokens", resp.Usage)
	}

	tests := []struct {
		name  string
		model string
		msgs  []llmtest.Message
	}{
		{"another model", "m2", hello},
		{"another message", "m1", []llmtest.Message{hello[0], {Role: "user", Content: "hello!"}}},
		{"another role", "m1", []llmtest.Message{{Role: "user", Content: "be brief"}, hello[1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.CreateChatCompletion(ctx, chat(tt.model, tt.msgs...))
			if status(err) != 404 || !strings.Contains(err.Error(), llmtest.Key(tt.model, tt.msgs)) {
				t.Errorf("err=%v, want 404 naming the request key", err)
			}
		})
	}

	models, err := c.ListModels(ctx)
	if err != nil || len(models.Models) != 1 || models.Models[0].ID != "m1" {
		t.Errorf("ListModels=%+v, %v; want [m1]", models.Models, err)
	}
	if got := len(srv.Requests()); got != 4 {
		t.Errorf("requests=%d, want 4", got)
	}
}

func TestScript(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, "")
	msgs := []llmtest.Message{{Role: "user", Content: "hi"}}
	srv.Add(llmtest.Fixture{Model: "m", Messages: msgs, Reply: "fixture"})
	override := "scripted"
	srv.Then(llmtest.Behavior{Status: 429}, llmtest.Behavior{Reply: &override})
	srv.RejectResponseFormat("json_schema")
	c := client(srv)

	withSchema := chat("m", msgs...)
	withSchema.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	steps := []struct {
		name       string
		req        openai.ChatCompletionRequest
		wantStatus int
		wantReply  string
	}{
		{"scripted 429", chat("m", msgs...), 429, ""},
		{"scripted reply", chat("m", msgs...), 200, "scripted"},
		{"json_object accepted", withSchema, 200, "fixture"},
		{"json_schema rejected", func() openai.ChatCompletionRequest {
			r := chat("m", msgs...)
			r.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
				JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "x", Schema: rawSchema(`{"type": "object"}`)}}
			return r
		}(), 400, ""},
	}
	for _, st := range steps {
		resp, err := c.CreateChatCompletion(ctx, st.req)
		if st.wantStatus != 200 {
			if status(err) != st.wantStatus {
				t.Errorf("%s: err=%v, want status %d", st.name, err, st.wantStatus)
			}
			continue
		}
		if err != nil || resp.Choices[0].Message.Content != st.wantReply {
			t.Errorf("%s: reply=%+v, %v; want %q", st.name, resp.Choices, err, st.wantReply)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != len(steps) || reqs[2].ResponseFormat != "json_object" || reqs[0].Status != 429 || reqs[3].Status != 400 {
		t.Errorf("requests=%+v, want the four with their formats and statuses", reqs)
	}

	srv.Always(llmtest.Behavior{Status: 500})
	if _, err := c.CreateChatCompletion(ctx, chat("m", msgs...)); status(err) != 500 {
		t.Errorf("after Always(500): err=%v, want 500", err)
	}
	srv.Reset()
	if _, err := c.CreateChatCompletion(ctx, chat("m", msgs...)); err != nil {
		t.Errorf("after Reset: %v, want the fixture", err)
	}
}

type rawSchema string

func (r rawSchema) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func TestFixturesOnDisk(t *testing.T) {
	// New fails the test on a fixture whose key does not match its request.
	llmtest.New(t, llmtest.FixtureDir())

	dir := t.TempDir()
	bad := `{"key": "0000", "model": "m", "messages": [{"role": "user", "content": "hi"}], "reply": "x"}`
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fatalRecorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		llmtest.New(ft, dir)
	}()
	if !strings.Contains(ft.msg, "hash to") {
		t.Errorf("New on a fixture with a wrong key: %q, want a key mismatch", ft.msg)
	}
}

// fatalRecorder records Fatalf instead of ending the test.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic("fatal")
}
