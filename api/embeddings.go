package api

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// maxEmbeddingInputs bounds the texts of one embeddings request, as
// OpenAI's endpoint does.
const maxEmbeddingInputs = 2048

// embeddingRequest is the body of POST /v1/embeddings, in OpenAI's shape.
type embeddingRequest struct {
	Input          json.RawMessage `json:"input"`
	Model          string          `json:"model"`
	EncodingFormat string          `json:"encoding_format"`
	Dimensions     *int            `json:"dimensions"`
	User           string          `json:"user"`
}

// inputs reads input as one string or an array of strings.
func (r *embeddingRequest) inputs() ([]string, error) {
	raw := bytes.TrimSpace(r.Input)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, lore.Errorf(lore.EINVALID, "input is required")
	}
	var texts []string
	if raw[0] == '"' {
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, lore.Errorf(lore.EINVALID, "input must be a string or an array of strings")
		}
		texts = []string{one}
	} else if err := json.Unmarshal(raw, &texts); err != nil {
		// Token arrays are part of OpenAI's shape, but tokens of which
		// tokenizer would be a guess; only text is accepted.
		return nil, lore.Errorf(lore.EINVALID, "input must be a string or an array of strings")
	}
	if len(texts) == 0 {
		return nil, lore.Errorf(lore.EINVALID, "input is empty")
	}
	if len(texts) > maxEmbeddingInputs {
		return nil, lore.Errorf(lore.ETOOLARGE, "input holds %d texts, more than %d", len(texts), maxEmbeddingInputs)
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, lore.Errorf(lore.EINVALID, "input[%d] is empty", i)
		}
	}
	return texts, nil
}

// embeddingData is one vector of the answer; Embedding is a []float32 or,
// with encoding_format "base64", the base64 of its little-endian bytes.
type embeddingData struct {
	Object    string `json:"object"`
	Index     int    `json:"index"`
	Embedding any    `json:"embedding"`
}

// embeddingUsage counts input tokens. Lore's embedders do not expose their
// tokenizer, so tokens are counted as white-space separated words.
type embeddingUsage struct {
	PromptTokens int `json:"prompt_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// embeddingResponse is the answer of POST /v1/embeddings.
type embeddingResponse struct {
	Object string          `json:"object"`
	Data   []embeddingData `json:"data"`
	Model  string          `json:"model"`
	Usage  embeddingUsage  `json:"usage"`
}

func (s *Server) embeddings(c *gin.Context) {
	var req embeddingRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	if s.Embedder == nil {
		s.writeError(c, lore.Errorf(lore.EUNAVAILABLE, "no embedder is available: none is configured, or the MiniLM model is not installed (run `make model`)"))
		return
	}
	texts, err := req.inputs()
	if err != nil {
		s.writeError(c, err)
		return
	}
	info := s.Embedder.Info()
	if req.EncodingFormat != "" && req.EncodingFormat != "float" && req.EncodingFormat != "base64" {
		s.writeError(c, lore.Errorf(lore.EINVALID, "encoding_format must be \"float\" or \"base64\", got %q", req.EncodingFormat))
		return
	}
	if req.Dimensions != nil && *req.Dimensions != info.Dim {
		s.writeError(c, lore.Errorf(lore.EINVALID, "dimensions must be %d for %s, got %d", info.Dim, info.Name, *req.Dimensions))
		return
	}
	vecs, err := s.Embedder.Embed(c.Request.Context(), texts)
	if err != nil {
		s.writeError(c, fmt.Errorf("api: embed: %w", err))
		return
	}
	if len(vecs) != len(texts) {
		s.writeError(c, fmt.Errorf("api: embedder returned %d vectors for %d texts", len(vecs), len(texts)))
		return
	}
	resp := embeddingResponse{Object: "list", Data: make([]embeddingData, len(vecs)), Model: info.Name}
	for i, v := range vecs {
		var emb any = v
		if req.EncodingFormat == "base64" {
			emb = encodeVector(v)
		}
		resp.Data[i] = embeddingData{Object: "embedding", Index: i, Embedding: emb}
		resp.Usage.PromptTokens += len(strings.Fields(texts[i]))
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	c.JSON(http.StatusOK, resp)
}

// encodeVector is OpenAI's base64 encoding: little-endian float32 bytes.
func encodeVector(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}
