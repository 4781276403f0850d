// Package metrics holds Lore's Prometheus metrics: the collectors, kept on a
// registry the caller passes in (no package-level state), and decorators
// that observe the ports (Index, Embedder, Extractor, the search path's
// GraphStore reads) without the adapters knowing. cmd/lore wires them;
// api serves them at GET /metrics. docs/grafana/lore.json charts them and
// a test checks that every series it queries exists.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/lore-memory/lore"
)

// Metrics is every Lore collector, registered on one registry.
type Metrics struct {
	reg *prometheus.Registry

	httpRequests *prometheus.CounterVec
	httpDuration *prometheus.HistogramVec
	searchStage  *prometheus.HistogramVec

	jobsEnqueued *prometheus.CounterVec
	jobOutcomes  *prometheus.CounterVec
	jobRetries   *prometheus.CounterVec

	extractorCalls    *prometheus.CounterVec
	extractorErrors   *prometheus.CounterVec
	extractorDuration *prometheus.HistogramVec

	embedDuration *prometheus.HistogramVec
	embedErrors   prometheus.Counter

	indexErrors *prometheus.CounterVec
	storeErrors *prometheus.CounterVec
}

// latencyBuckets span a fast index read to a slow LLM call, in seconds.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// New creates the collectors and registers them, with the Go runtime and
// process collectors, on reg.
func New(reg *prometheus.Registry) *Metrics {
	m := &Metrics{
		reg: reg,
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_http_requests_total", Help: "HTTP requests answered, by method, route pattern and status.",
		}, []string{"method", "route", "status"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lore_http_request_duration_seconds", Help: "HTTP request latency, by method, route pattern and status.", Buckets: latencyBuckets,
		}, []string{"method", "route", "status"}),
		searchStage: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lore_search_stage_duration_seconds", Help: "Time spent in each stage of the search pipeline.", Buckets: latencyBuckets,
		}, []string{"stage"}),
		jobsEnqueued: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_jobs_enqueued_total", Help: "Background jobs enqueued, by kind.",
		}, []string{"kind"}),
		jobOutcomes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_job_outcomes_total", Help: "Job runs settled, by outcome: done, retrying, failed or requeued (shutdown).",
		}, []string{"outcome"}),
		jobRetries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_job_retries_total", Help: "Job runs that were a retry (second attempt or later), by kind.",
		}, []string{"kind"}),
		extractorCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_extractor_calls_total", Help: "Extractor calls (one per batch of episodes), by tenant.",
		}, []string{"tenant"}),
		extractorErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_extractor_errors_total", Help: "Extractor calls that failed, by tenant.",
		}, []string{"tenant"}),
		extractorDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lore_extractor_duration_seconds", Help: "Extractor call latency, by tenant.", Buckets: latencyBuckets,
		}, []string{"tenant"}),
		embedDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "lore_embedder_duration_seconds", Help: "Embedder call latency, by batch size class (1, 2-16, 17+).", Buckets: latencyBuckets,
		}, []string{"batch"}),
		embedErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "lore_embedder_errors_total", Help: "Embedder calls that failed.",
		}),
		indexErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_index_errors_total", Help: "Search index operations that failed, by operation.",
		}, []string{"op"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "lore_store_errors_total", Help: "Graph store reads of the search pipeline that failed, by operation.",
		}, []string{"op"}),
	}
	reg.MustRegister(m.httpRequests, m.httpDuration, m.searchStage, m.jobsEnqueued, m.jobOutcomes, m.jobRetries,
		m.extractorCalls, m.extractorErrors, m.extractorDuration, m.embedDuration, m.embedErrors, m.indexErrors, m.storeErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry returns the registry the collectors are on, for further ones.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ObserveHTTP records one answered request. route is the route pattern
// ("unmatched" for none), never the raw path, so ids do not become series.
func (m *Metrics) ObserveHTTP(method, route string, status int, d time.Duration) {
	s := strconv.Itoa(status)
	m.httpRequests.WithLabelValues(method, route, s).Inc()
	m.httpDuration.WithLabelValues(method, route, s).Observe(d.Seconds())
}

// ObserveStage records the time one search stage took.
func (m *Metrics) ObserveStage(stage string, d time.Duration) {
	m.searchStage.WithLabelValues(stage).Observe(d.Seconds())
}

// JobEnqueued counts a job put on the queue.
func (m *Metrics) JobEnqueued(job *lore.Job) { m.jobsEnqueued.WithLabelValues(job.Kind).Inc() }

// JobSettled counts one run's outcome; a run with Attempts > 1 was a retry.
func (m *Metrics) JobSettled(job *lore.Job, requeued bool) {
	outcome := string(job.Status)
	switch {
	case requeued:
		outcome = "requeued"
	case job.Status == lore.JobQueued:
		outcome = "requeued"
	}
	m.jobOutcomes.WithLabelValues(outcome).Inc()
	if job.Attempts > 1 {
		m.jobRetries.WithLabelValues(job.Kind).Inc()
	}
}

// WatchQueue registers a gauge of the queue's depth by state, read from
// the store at each scrape.
func (m *Metrics) WatchQueue(q lore.QueueCounter) {
	m.reg.MustRegister(&queueCollector{q: q, desc: prometheus.NewDesc("lore_queue_jobs",
		"Jobs waiting or running, by state (queued, running, retrying), across tenants.", []string{"status"}, nil)})
}

// queueCollector reads the queue depth when scraped.
type queueCollector struct {
	q    lore.QueueCounter
	desc *prometheus.Desc
}

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := c.q.CountJobs(ctx, "")
	if err != nil {
		ch <- prometheus.NewInvalidMetric(c.desc, err)
		return
	}
	for _, st := range []lore.JobStatus{lore.JobQueued, lore.JobRunning, lore.JobRetrying} {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(counts[st]), string(st))
	}
}

// Usage is one tenant's use of an LLM extractor.
type Usage struct {
	Calls, CacheHits, Failures, PromptTokens, CompletionTokens int64
}

// WatchUsage registers counters of LLM usage per tenant, read from usage
// (the LLM extractor's own counts) at each scrape.
func (m *Metrics) WatchUsage(usage func() map[string]Usage) {
	m.reg.MustRegister(&usageCollector{usage: usage,
		calls:  prometheus.NewDesc("lore_llm_calls_total", "Requests sent to the LLM, retries included, by tenant.", []string{"tenant"}, nil),
		hits:   prometheus.NewDesc("lore_llm_cache_hits_total", "Extraction batches answered from the reply cache, by tenant.", []string{"tenant"}, nil),
		fails:  prometheus.NewDesc("lore_llm_failures_total", "LLM extraction batches that failed, by tenant.", []string{"tenant"}, nil),
		tokens: prometheus.NewDesc("lore_llm_tokens_total", "LLM tokens, by tenant and kind (prompt, completion).", []string{"tenant", "kind"}, nil),
	})
}

type usageCollector struct {
	usage                      func() map[string]Usage
	calls, hits, fails, tokens *prometheus.Desc
}

func (c *usageCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.calls
	ch <- c.hits
	ch <- c.fails
	ch <- c.tokens
}

func (c *usageCollector) Collect(ch chan<- prometheus.Metric) {
	for tenant, u := range c.usage() {
		ch <- prometheus.MustNewConstMetric(c.calls, prometheus.CounterValue, float64(u.Calls), tenant)
		ch <- prometheus.MustNewConstMetric(c.hits, prometheus.CounterValue, float64(u.CacheHits), tenant)
		ch <- prometheus.MustNewConstMetric(c.fails, prometheus.CounterValue, float64(u.Failures), tenant)
		ch <- prometheus.MustNewConstMetric(c.tokens, prometheus.CounterValue, float64(u.PromptTokens), tenant, "prompt")
		ch <- prometheus.MustNewConstMetric(c.tokens, prometheus.CounterValue, float64(u.CompletionTokens), tenant, "completion")
	}
}
