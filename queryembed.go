package lore

import "context"

// QueryEmbedder is an Embedder whose model embeds a search query differently
// from a stored passage, as the e5 models do with their "query: " and
// "passage: " prefixes. Its Embed embeds passages (what ingest stores and
// reindex re-embeds); EmbedQuery embeds what retrieval searches with.
type QueryEmbedder interface {
	Embedder
	// EmbedQuery returns one unit-length vector per query text, in order.
	EmbedQuery(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedQuery embeds texts as search queries: through e's EmbedQuery when e
// is a QueryEmbedder, else through Embed, as for a symmetric model (MiniLM).
func EmbedQuery(ctx context.Context, e Embedder, texts []string) ([][]float32, error) {
	if q, ok := e.(QueryEmbedder); ok {
		return q.EmbedQuery(ctx, texts)
	}
	return e.Embed(ctx, texts)
}
