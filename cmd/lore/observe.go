package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/metrics"
)

// instrument makes the server's metrics on a new registry and wraps the
// backends' index, embedder and extractor so that the ingestion service
// and the pipeline built from them afterwards are observed.
func instrument(b *backends) *metrics.Metrics {
	mx := metrics.New(prometheus.NewRegistry())
	b.Index = mx.WrapIndex(b.Index)
	b.Embedder = mx.WrapEmbedder(b.Embedder)
	b.Extractor = mx.WrapExtractor(b.Extractor)
	if q, ok := b.Store.(lore.QueueCounter); ok {
		mx.WatchQueue(q)
	}
	if b.LLM != nil {
		mx.WatchUsage(func() map[string]metrics.Usage {
			out := map[string]metrics.Usage{}
			for tenant, u := range b.LLM.Stats() {
				out[tenant] = metrics.Usage(u)
			}
			return out
		})
	}
	return mx
}

// attachMetrics connects the service, the pipeline and the API to mx, and
// the LLM usage to GET /v1/usage.
func attachMetrics(mx *metrics.Metrics, b *backends, svc *ingest.Service, srv *api.Server) {
	svc.Observer = mx
	srv.Search.Graph = mx.WrapGraph(srv.Search.Graph)
	srv.Search.Observe = mx.ObserveStage
	srv.Metrics = mx
	srv.Started = time.Now().UTC()
	if b.LLM != nil {
		srv.Usage = func() map[string]api.LLMUsage {
			out := map[string]api.LLMUsage{}
			for tenant, u := range b.LLM.Stats() {
				out[tenant] = api.LLMUsage(u)
			}
			return out
		}
	}
}

// requestIDHandler adds the context's request id (lore.RequestID) to every
// record logged with a context, unless the record names one already: an
// HTTP request's logs and those of the job it enqueued share the id.
type requestIDHandler struct{ slog.Handler }

// Handle adds request_id and forwards.
func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := lore.RequestID(ctx); id != "" {
		has := false
		r.Attrs(func(a slog.Attr) bool {
			has = a.Key == "request_id"
			return !has
		})
		if !has {
			r.AddAttrs(slog.String("request_id", id))
		}
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs keeps the wrapper.
func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup keeps the wrapper.
func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
