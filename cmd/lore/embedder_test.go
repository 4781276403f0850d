package main

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

// fakeEmbeddings is an OpenAI-compatible /v1/embeddings server: each text
// gets a unit vector of dim floats seeded by its hash, so equal texts get
// equal vectors.
func fakeEmbeddings(t *testing.T, dim int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type datum struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		data := make([]datum, len(req.Input))
		for i, text := range req.Input {
			h := fnv.New64a()
			io.WriteString(h, text)
			seed := h.Sum64()
			v := make([]float32, dim)
			var norm float64
			for j := range v {
				seed = seed*6364136223846793005 + 1442695040888963407
				v[j] = float32(seed>>40)/float32(1<<24) + 0.01
				norm += float64(v[j]) * float64(v[j])
			}
			for j := range v {
				v[j] /= float32(math.Sqrt(norm))
			}
			data[i] = datum{Object: "embedding", Index: i, Embedding: v}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": req.Model, "usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestOpenAIEmbedderServeAndReindex runs serve with the openai embedder
// against an in-test server: memories are embedded, /v1/embeddings answers
// from the same model, a restart with another model is refused with a
// message naming `lore reindex`, and after a reindex it starts.
func TestOpenAIEmbedderServeAndReindex(t *testing.T) {
	fake := fakeEmbeddings(t, 8)
	dir := t.TempDir()
	envFor := func(model string) map[string]string {
		return map[string]string{"LORE_EMBEDDER": "openai", "LORE_EMBED_BASE_URL": fake.URL + "/v1", "LORE_EMBED_MODEL": model, "LORE_EMBED_DIM": "8"}
	}
	serveWith := func(model string) *Main {
		env := envFor(model)
		return &Main{Args: []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", dir}, Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(k string) string { return env[k] }}
	}
	// startServe passes --embedder none; the flag would win over the
	// environment, so override it with a later flag.
	base, stop := startServe(t, dir, envFor("model-a"), "--embedder", "openai")
	call(t, 200, "POST", base+"/v1/memories", map[string]any{"user_id": "alice", "sync": true, "messages": []map[string]any{{"role": "user", "content": "I live in Paris."}}}, nil)
	var emb struct {
		Model string `json:"model"`
		Data  []struct {
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	call(t, 200, "POST", base+"/v1/embeddings", map[string]any{"input": []string{"hello", "world"}}, &emb)
	if emb.Model != "model-a" || len(emb.Data) != 2 || len(emb.Data[0].Embedding) != 8 {
		t.Fatalf("embeddings=%+v, want two 8-d vectors from model-a", emb)
	}
	var found struct {
		Results []struct {
			Memory       string             `json:"memory"`
			ScoreDetails map[string]float64 `json:"score_details"`
		} `json:"results"`
	}
	call(t, 200, "POST", base+"/v1/memories/search", map[string]any{"user_id": "alice", "query": "I live in Paris.", "explain": true}, &found)
	if len(found.Results) == 0 || found.Results[0].ScoreDetails["dense"] <= 0 {
		t.Errorf("search=%+v, want results with a dense score", found.Results)
	}
	stop()

	m := serveWith("model-b")
	err := m.Run(context.Background())
	m.Close()
	if lore.ErrorCode(err) != lore.ECONFLICT || !strings.Contains(message(err), "lore reindex") {
		t.Fatalf("serve with another model: err=%v, want ECONFLICT naming lore reindex", err)
	}

	if out, err := run(t, envFor("model-b"), "", "reindex", "--data-dir", dir, "--user", "alice"); err != nil || !strings.Contains(out, "re-indexed") {
		t.Fatalf("reindex: %q, %v", out, err)
	}
	base, _ = startServe(t, dir, envFor("model-b"), "--embedder", "openai")
	call(t, 200, "POST", base+"/v1/embeddings", map[string]any{"input": "hello"}, &emb)
	if emb.Model != "model-b" {
		t.Errorf("after reindex model=%q, want model-b", emb.Model)
	}
}

func TestOpenAIEmbedderNeedsConfiguration(t *testing.T) {
	_, err := openEmbedder(backendConfig{Embedder: "openai", EmbedModel: "m"}, nil)
	if lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(lore.ErrorMessage(err), "LORE_EMBED_BASE_URL") {
		t.Fatalf("err=%v, want EINVALID naming LORE_EMBED_BASE_URL", err)
	}
}
