package metrics

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

// Index counts the errors of a lore.Index by operation.
type Index struct {
	lore.Index
	m *Metrics
}

var _ lore.Index = (*Index)(nil)

// WrapIndex returns idx observed by m.
func (m *Metrics) WrapIndex(idx lore.Index) *Index { return &Index{Index: idx, m: m} }

func (x *Index) count(op string, err error) error {
	if err != nil {
		x.m.indexErrors.WithLabelValues(op).Inc()
	}
	return err
}

// Upsert forwards and counts a failure.
func (x *Index) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	return x.count("upsert", x.Index.Upsert(ctx, docs))
}

// Delete forwards and counts a failure.
func (x *Index) Delete(ctx context.Context, scope lore.Scope, ids []string) error {
	return x.count("delete", x.Index.Delete(ctx, scope, ids))
}

// SearchText forwards and counts a failure.
func (x *Index) SearchText(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	hits, err := x.Index.SearchText(ctx, q)
	return hits, x.count("search_text", err)
}

// SearchVector forwards and counts a failure.
func (x *Index) SearchVector(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	hits, err := x.Index.SearchVector(ctx, q)
	return hits, x.count("search_vector", err)
}

// DeleteScope forwards and counts a failure.
func (x *Index) DeleteScope(ctx context.Context, scope lore.Scope) error {
	return x.count("delete_scope", x.Index.DeleteScope(ctx, scope))
}

// Embedder times a lore.Embedder's calls and counts its errors. It
// forwards EmbedQuery and EntitySimilarity to the embedder it wraps, so
// that wrapping hides neither a query cache or query prefix behind it nor
// the model's entity-similarity bar.
type Embedder struct {
	lore.Embedder
	m *Metrics
}

var (
	_ lore.QueryEmbedder            = (*Embedder)(nil)
	_ lore.EntitySimilarityEmbedder = (*Embedder)(nil)
)

// WrapEmbedder returns e observed by m; nil stays nil.
func (m *Metrics) WrapEmbedder(e lore.Embedder) lore.Embedder {
	if e == nil {
		return nil
	}
	return &Embedder{Embedder: e, m: m}
}

// Embed forwards, timing the call by batch size class.
func (x *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	start := time.Now()
	out, err := x.Embedder.Embed(ctx, texts)
	x.observe(start, len(texts), err)
	return out, err
}

// EmbedQuery forwards to the wrapped embedder's EmbedQuery (its Embed when
// it embeds queries and passages alike), timing the call as Embed does.
func (x *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	start := time.Now()
	out, err := lore.EmbedQuery(ctx, x.Embedder, texts)
	x.observe(start, len(texts), err)
	return out, err
}

// EntitySimilarity is the wrapped embedder's bar for entity names.
func (x *Embedder) EntitySimilarity() float64 { return lore.EntitySimilarity(x.Embedder) }

// observe records one call of n texts that started at start.
func (x *Embedder) observe(start time.Time, n int, err error) {
	class := "1"
	switch {
	case n > 16:
		class = "17+"
	case n > 1:
		class = "2-16"
	}
	x.m.embedDuration.WithLabelValues(class).Observe(time.Since(start).Seconds())
	if err != nil {
		x.m.embedErrors.Inc()
	}
}

// Extractor counts a lore.Extractor's calls and errors per tenant and
// times them. It forwards Forget to an extractor that forgets, so that an
// erase still clears the reply cache behind it.
type Extractor struct {
	next lore.Extractor
	m    *Metrics
}

var (
	_ lore.Extractor = (*Extractor)(nil)
	_ lore.Forgetter = (*Extractor)(nil)
)

// WrapExtractor returns x observed by m.
func (m *Metrics) WrapExtractor(x lore.Extractor) *Extractor { return &Extractor{next: x, m: m} }

// Extract forwards and records the call.
func (x *Extractor) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	tenant := req.Scope.TenantID
	start := time.Now()
	out, err := x.next.Extract(ctx, req)
	x.m.extractorCalls.WithLabelValues(tenant).Inc()
	x.m.extractorDuration.WithLabelValues(tenant).Observe(time.Since(start).Seconds())
	if err != nil {
		x.m.extractorErrors.WithLabelValues(tenant).Inc()
	}
	return out, err
}

// Forget forwards to the wrapped extractor when it keeps anything.
func (x *Extractor) Forget(ctx context.Context, scope lore.Scope) error {
	if f, ok := x.next.(lore.Forgetter); ok {
		return f.Forget(ctx, scope)
	}
	return nil
}

// Graph counts the errors of the graph store reads the search pipeline
// makes. Writes are not wrapped: their failures show as failed jobs and
// 5xx answers.
type Graph struct {
	lore.GraphStore
	m *Metrics
}

// WrapGraph returns g observed by m, for retrieve.Pipeline.Graph.
func (m *Metrics) WrapGraph(g lore.GraphStore) *Graph { return &Graph{GraphStore: g, m: m} }

func (g *Graph) count(op string, err error) error {
	if err != nil {
		g.m.storeErrors.WithLabelValues(op).Inc()
	}
	return err
}

// FindEpisodes forwards and counts a failure.
func (g *Graph) FindEpisodes(ctx context.Context, f lore.EpisodeFilter) ([]*lore.Episode, error) {
	out, err := g.GraphStore.FindEpisodes(ctx, f)
	return out, g.count("find_episodes", err)
}

// FindFacts forwards and counts a failure.
func (g *Graph) FindFacts(ctx context.Context, f lore.FactFilter) ([]*lore.Fact, error) {
	out, err := g.GraphStore.FindFacts(ctx, f)
	return out, g.count("find_facts", err)
}

// FindEntities forwards and counts a failure.
func (g *Graph) FindEntities(ctx context.Context, f lore.EntityFilter) ([]*lore.Entity, error) {
	out, err := g.GraphStore.FindEntities(ctx, f)
	return out, g.count("find_entities", err)
}

// Neighborhood forwards and counts a failure.
func (g *Graph) Neighborhood(ctx context.Context, q lore.NeighborhoodQuery) ([]lore.GraphHit, error) {
	out, err := g.GraphStore.Neighborhood(ctx, q)
	return out, g.count("neighborhood", err)
}

// Speakers forwards and counts a failure.
func (g *Graph) Speakers(ctx context.Context, scope lore.Scope) ([]string, error) {
	out, err := g.GraphStore.Speakers(ctx, scope)
	return out, g.count("speakers", err)
}
