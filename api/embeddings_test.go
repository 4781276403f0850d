package api

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"math"
	"net/http"
	"testing"

	"github.com/lore-memory/lore"
)

// hashEmbedder is a deterministic embedder: each text's FNV hash seeds a
// unit vector, so equal texts get equal vectors and tests can check order.
type hashEmbedder struct{ dim int }

func (h hashEmbedder) Info() lore.EmbedderInfo {
	return lore.EmbedderInfo{Name: "hash-test", Dim: h.dim, Checksum: "test"}
}

func (h hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		f := fnv.New64a()
		f.Write([]byte(t))
		seed := f.Sum64()
		v := make([]float32, h.dim)
		var norm float64
		for j := range v {
			seed = seed*6364136223846793005 + 1442695040888963407
			v[j] = float32(int64(seed>>11)%1000) / 1000
			norm += float64(v[j]) * float64(v[j])
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(norm))
		}
		out[i] = v
	}
	return out, nil
}

func TestEmbeddings(t *testing.T) {
	emb := hashEmbedder{dim: 8}
	e := newEnv(t, func(s *Server) { s.Embedder = emb })
	want, _ := emb.Embed(context.Background(), []string{"hello world", "second text"})

	one := decode[embeddingResponse](t, e.must(http.StatusOK, "POST", "/v1/embeddings", map[string]any{"input": "hello world", "model": "anything"}))
	if one.Object != "list" || one.Model != "hash-test" || len(one.Data) != 1 || one.Data[0].Object != "embedding" {
		t.Fatalf("answer=%+v, want one embedding listed under hash-test", one)
	}
	if one.Usage.PromptTokens != 2 || one.Usage.TotalTokens != 2 {
		t.Errorf("usage=%+v, want 2 tokens", one.Usage)
	}

	type floats struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	many := decode[floats](t, e.must(http.StatusOK, "POST", "/v1/embeddings", map[string]any{"input": []string{"hello world", "second text"}}))
	if len(many.Data) != 2 {
		t.Fatalf("len(data)=%d, want 2", len(many.Data))
	}
	for i, d := range many.Data {
		if d.Index != i || len(d.Embedding) != 8 {
			t.Fatalf("data[%d]: index=%d dim=%d, want %d and 8", i, d.Index, len(d.Embedding), i)
		}
		for j := range d.Embedding {
			if d.Embedding[j] != want[i][j] {
				t.Fatalf("data[%d][%d]=%v, want %v", i, j, d.Embedding[j], want[i][j])
			}
		}
	}

	b64 := decode[struct {
		Data []struct {
			Embedding string `json:"embedding"`
		} `json:"data"`
	}](t, e.must(http.StatusOK, "POST", "/v1/embeddings", map[string]any{"input": "hello world", "encoding_format": "base64"}))
	raw, err := base64.StdEncoding.DecodeString(b64.Data[0].Embedding)
	if err != nil || len(raw) != 32 {
		t.Fatalf("base64 embedding: %d bytes, err %v; want 32 bytes", len(raw), err)
	}
	for j := range 8 {
		if got := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:])); got != want[0][j] {
			t.Fatalf("base64 component %d=%v, want %v", j, got, want[0][j])
		}
	}

	tests := []struct {
		name   string
		body   any
		status int
		code   string
		substr string
	}{
		{"no input", map[string]any{"model": "x"}, 400, lore.EINVALID, "input is required"},
		{"empty array", map[string]any{"input": []string{}}, 400, lore.EINVALID, "input is empty"},
		{"empty string", map[string]any{"input": []string{"a", " "}}, 400, lore.EINVALID, "input[1]"},
		{"token ids", map[string]any{"input": []int{1, 2, 3}}, 400, lore.EINVALID, "array of strings"},
		{"number", map[string]any{"input": 5}, 400, lore.EINVALID, "array of strings"},
		{"bad format", map[string]any{"input": "a", "encoding_format": "hex"}, 400, lore.EINVALID, "encoding_format"},
		{"wrong dimensions", map[string]any{"input": "a", "dimensions": 16}, 400, lore.EINVALID, "dimensions must be 8"},
		{"too many", map[string]any{"input": make([]string, maxEmbeddingInputs+1)}, 413, lore.ETOOLARGE, "more than 2048"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, e.do("POST", "/v1/embeddings", tt.body), tt.status, tt.code, tt.substr)
		})
	}
}
