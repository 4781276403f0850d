// Package llmtest is an OpenAI-compatible chat server for tests. It answers
// POST /v1/chat/completions by replaying fixtures — recorded replies keyed by
// a hash of the request's model and messages — and can be scripted to fail
// the ways real endpoints do: slow replies, 429s, 500s, and refusing
// response_format. It records every request it gets.
//
// A request without a fixture gets a 404 naming its key. With
// LLMTEST_WRITE=1 the server also writes a skeleton <key>.json.new beside
// the fixtures holding the request, to be given a reply and renamed to .json.
// With LLMTEST_UPSTREAM set to a real endpoint's API root (and
// LLMTEST_UPSTREAM_KEY when it needs one) such requests are forwarded there
// and the answers saved as fixtures, to re-record after a prompt change.
package llmtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is a chat message as the server keys and records it.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Fixture is one recorded exchange, stored as a JSON file.
type Fixture struct {
	// Key is Key(Model, Messages); Add computes it when empty.
	Key   string `json:"key"`
	Note  string `json:"note,omitempty"`
	Model string `json:"model"`
	// Messages is the request, kept so a reviewer can see what was asked.
	Messages []Message `json:"messages"`
	// Reply is the assistant message's content to answer with.
	Reply string `json:"reply"`
	// PromptTokens and CompletionTokens are reported as usage; zero means
	// an estimate of four bytes a token.
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
}

// Behavior overrides how the server answers one request.
type Behavior struct {
	// Delay is waited before answering, or until the client gives up.
	Delay time.Duration
	// Status, when not 0 or 200, is answered with an OpenAI-style error.
	Status int
	// Reply, when set, is answered instead of the fixture.
	Reply *string
	// FinishReason is the answer's finish_reason; "" means "stop". Use
	// "length" for a reply cut off at the token limit.
	FinishReason string
}

// Request is a request as the server received it.
type Request struct {
	Key            string
	Model          string
	Messages       []Message
	ResponseFormat string // the response_format type, "" when none
	Authorization  string
	Status         int // the status the server answered with; 0 until it has, or if the client gave up
}

// Server is a running replay server. Its methods are safe for concurrent use.
type Server struct {
	// URL is the API root to use as a client's base URL, ending in /v1.
	URL string

	tb  testing.TB
	dir string
	srv *httptest.Server

	mu       sync.Mutex
	fixtures map[string]Fixture
	script   []Behavior
	always   *Behavior
	reject   map[string]bool
	requests []Request
}

// FixtureDir is the fixtures/llm directory of this module.
func FixtureDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "fixtures", "llm")
}

// New starts a server replaying the *.json fixtures in dir ("" for none)
// and closes it when the test ends.
func New(tb testing.TB, dir string) *Server {
	tb.Helper()
	s := &Server{tb: tb, dir: dir, fixtures: map[string]Fixture{}, reject: map[string]bool{}}
	if dir != "" {
		paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			tb.Fatalf("llmtest: list fixtures: %v", err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				tb.Fatalf("llmtest: %v", err)
			}
			var f Fixture
			if err := json.Unmarshal(data, &f); err != nil {
				tb.Fatalf("llmtest: fixture %s: %v", p, err)
			}
			if want := Key(f.Model, f.Messages); f.Key != want {
				tb.Fatalf("llmtest: fixture %s has key %s, but its model and messages hash to %s", p, f.Key, want)
			}
			s.fixtures[f.Key] = f
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.models)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	tb.Cleanup(s.srv.Close)
	return s
}

// Key is the stable hash a fixture is found by: SHA-256 over the model and
// the role and content of every message.
func Key(model string, msgs []Message) string {
	h := sha256.New()
	write := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	write(model)
	for _, m := range msgs {
		write(m.Role)
		write(m.Content)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Add registers a fixture, computing its key when empty.
func (s *Server) Add(f Fixture) {
	if f.Key == "" {
		f.Key = Key(f.Model, f.Messages)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fixtures[f.Key] = f
}

// Then queues behaviours applied to the next requests, one each.
func (s *Server) Then(b ...Behavior) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, b...)
}

// Always applies b to every request once the queue from Then is used up.
func (s *Server) Always(b Behavior) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.always = &b
}

// Reset drops the scripted behaviours and the response_format rejections,
// so the server answers from its fixtures again.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.always, s.reject = nil, nil, map[string]bool{}
}

// RejectResponseFormat makes the server answer 400 to requests whose
// response_format has one of these types, as endpoints without structured
// output do.
func (s *Server) RejectResponseFormat(types ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range types {
		s.reject[t] = true
	}
}

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// chatRequest is the part of a chat completion request the server reads.
type chatRequest struct {
	Model          string    `json:"model"`
	Messages       []Message `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "read body: "+err.Error())
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "body is not a chat completion request: "+err.Error())
		return
	}
	rec := Request{Key: Key(req.Model, req.Messages), Model: req.Model, Messages: req.Messages, Authorization: r.Header.Get("Authorization")}
	if req.ResponseFormat != nil {
		rec.ResponseFormat = req.ResponseFormat.Type
	}

	s.mu.Lock()
	var b Behavior
	switch {
	case len(s.script) > 0:
		b, s.script = s.script[0], s.script[1:]
	case s.always != nil:
		b = *s.always
	}
	f, found := s.fixtures[rec.Key]
	rejected := s.reject[rec.ResponseFormat]
	// Recorded on arrival, so a test sees a request whose client gave up.
	i := len(s.requests)
	s.requests = append(s.requests, rec)
	s.mu.Unlock()

	status := s.answer(w, r, rec, b, f, found, rejected, body)
	s.mu.Lock()
	s.requests[i].Status = status
	s.mu.Unlock()
}

// answer writes the response for one request and returns its status.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, rec Request, b Behavior, f Fixture, found, rejected bool, body []byte) int {
	if b.Delay > 0 {
		t := time.NewTimer(b.Delay)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return 0
		case <-t.C:
		}
	}
	switch {
	case b.Status != 0 && b.Status != http.StatusOK:
		writeError(w, b.Status, errorType(b.Status), fmt.Sprintf("llmtest: scripted status %d", b.Status))
		return b.Status
	case rejected:
		writeError(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("response_format of type %q is not supported by this model", rec.ResponseFormat))
		return http.StatusBadRequest
	case b.Reply != nil:
		writeReply(w, rec, Fixture{Model: rec.Model, Reply: *b.Reply}, b.FinishReason)
		return http.StatusOK
	case found:
		writeReply(w, rec, f, b.FinishReason)
		return http.StatusOK
	}
	if up := os.Getenv("LLMTEST_UPSTREAM"); up != "" {
		f, err := s.record(r, up, rec, body)
		if err != nil {
			writeError(w, http.StatusBadGateway, "server_error", "llmtest: record: "+err.Error())
			return http.StatusBadGateway
		}
		writeReply(w, rec, f, "")
		return http.StatusOK
	}
	hint := ""
	if os.Getenv("LLMTEST_WRITE") == "1" && s.dir != "" {
		path := filepath.Join(s.dir, rec.Key[:16]+".json.new")
		if err := writeFixture(path, Fixture{Key: rec.Key, Model: rec.Model, Messages: rec.Messages}); err != nil {
			s.tb.Errorf("llmtest: write skeleton: %v", err)
		} else {
			hint = "; skeleton written to " + path
		}
	}
	s.tb.Logf("llmtest: no fixture for key %s (model %q, %d messages)%s", rec.Key, rec.Model, len(rec.Messages), hint)
	writeError(w, http.StatusNotFound, "not_found_error", "llmtest: no fixture for request key "+rec.Key+hint)
	return http.StatusNotFound
}

// record forwards a request without fixture to a real endpoint and saves
// the answer as a fixture.
func (s *Server) record(r *http.Request, upstream string, rec Request, body []byte) (Fixture, error) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, strings.TrimRight(upstream, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return Fixture{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if key := os.Getenv("LLMTEST_UPSTREAM_KEY"); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Fixture{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return Fixture{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return Fixture{}, fmt.Errorf("upstream answered %s: %s", resp.Status, data)
	}
	var out struct {
		Choices []struct {
			Message Message `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) == 0 {
		return Fixture{}, fmt.Errorf("upstream answer has no choices: %s", data)
	}
	f := Fixture{Key: rec.Key, Model: rec.Model, Messages: rec.Messages, Reply: out.Choices[0].Message.Content,
		PromptTokens: out.Usage.PromptTokens, CompletionTokens: out.Usage.CompletionTokens, Note: "recorded from " + upstream}
	if s.dir != "" {
		if err := writeFixture(filepath.Join(s.dir, rec.Key[:16]+".json"), f); err != nil {
			return Fixture{}, err
		}
	}
	s.Add(f)
	return f, nil
}

func writeFixture(path string, f Fixture) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	seen := map[string]bool{}
	for _, f := range s.fixtures {
		seen[f.Model] = true
	}
	s.mu.Unlock()
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range ids {
		list.Data = append(list.Data, model{ID: id, Object: "model", OwnedBy: "llmtest"})
	}
	writeJSON(w, http.StatusOK, list)
}

func writeReply(w http.ResponseWriter, rec Request, f Fixture, finish string) {
	if finish == "" {
		finish = "stop"
	}
	prompt, completion := f.PromptTokens, f.CompletionTokens
	if prompt == 0 {
		for _, m := range rec.Messages {
			prompt += len(m.Content)/4 + 4
		}
	}
	if completion == 0 {
		completion = len(f.Reply)/4 + 1
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      "chatcmpl-llmtest-" + rec.Key[:12],
		"object":  "chat.completion",
		"created": 1700000000,
		"model":   rec.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": f.Reply},
			"finish_reason": finish,
		}},
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
	})
}

func errorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_error"
	case status >= 500:
		return "server_error"
	}
	return "invalid_request_error"
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": nil}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// The client may be gone; there is nobody to report a write error to.
	_ = json.NewEncoder(w).Encode(v)
}
