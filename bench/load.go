package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/lore-memory/lore"
)

// LoadQuery is one search a load run sends: a user's question, in the
// tenant the benchmark ingested it into.
type LoadQuery struct {
	Tenant, User, Text string
}

// LoadQueries turns a dataset's questions into load queries, in the tenant
// and user ids `lore bench locomo|longmemeval` stores them under.
func LoadQueries(ds *Dataset) []LoadQuery {
	var out []LoadQuery
	for _, sp := range ds.Spaces {
		for _, q := range sp.Questions {
			out = append(out, LoadQuery{Tenant: "bench-" + ds.Name, User: sp.ID, Text: q.Text})
		}
	}
	return out
}

// Load is a bounded load run against a Lore server on this machine.
type Load struct {
	Server   string // base URL; its host must be a loopback address
	Key      string // API key, empty on an open loopback server
	Clients  int
	Duration time.Duration
	Warmup   time.Duration // requests in the first Warmup are sent, not counted
	TopK     int
	Client   *http.Client
}

// LoadReport is what a load run measured after its warm-up.
type LoadReport struct {
	Clients    int     `json:"clients"`
	Seconds    float64 `json:"seconds"`
	Requests   int     `json:"requests"`
	Errors     int     `json:"errors"`
	PerSecond  float64 `json:"searches_per_second"`
	P50Millis  float64 `json:"p50_ms"`
	P95Millis  float64 `json:"p95_ms"`
	P99Millis  float64 `json:"p99_ms"`
	MaxMillis  float64 `json:"max_ms"`
	FirstError string  `json:"first_error,omitempty"`
}

// CheckLoopback refuses a server address that is not on this machine: a
// load generator must never be pointed at someone else's service.
func CheckLoopback(server string) error {
	u, err := url.Parse(server)
	if err != nil || u.Host == "" {
		return lore.Errorf(lore.EINVALID, "--server %q is not a URL", server)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return lore.Errorf(lore.EINVALID, "--server %q is not a loopback address; lore bench load only runs against this machine", server)
}

// Run sends queries round-robin from Clients concurrent clients for
// Warmup+Duration, each client waiting for its answer before the next.
func (l Load) Run(ctx context.Context, queries []LoadQuery) (*LoadReport, error) {
	if err := CheckLoopback(l.Server); err != nil {
		return nil, err
	}
	if len(queries) == 0 {
		return nil, lore.Errorf(lore.EINVALID, "no queries to send")
	}
	if l.Clients < 1 || l.Duration <= 0 {
		return nil, lore.Errorf(lore.EINVALID, "clients and duration must be positive")
	}
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: l.Clients}}
	}
	start := time.Now()
	measureFrom, end := start.Add(l.Warmup), start.Add(l.Warmup+l.Duration)
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errs      int
		firstErr  string
		next      int
		wg        sync.WaitGroup
	)
	for range l.Clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				mu.Lock()
				q := queries[next%len(queries)]
				next++
				mu.Unlock()
				sent := time.Now()
				if !sent.Before(end) {
					return
				}
				err := l.search(ctx, client, q)
				took := time.Since(sent)
				if sent.Before(measureFrom) {
					continue
				}
				mu.Lock()
				if err != nil {
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
				} else {
					latencies = append(latencies, took)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	secs := time.Since(measureFrom).Seconds()
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		if len(latencies) == 0 {
			return 0
		}
		i := min(int(p*float64(len(latencies))), len(latencies)-1)
		return float64(latencies[i].Microseconds()) / 1000
	}
	rep := &LoadReport{Clients: l.Clients, Seconds: secs, Requests: len(latencies) + errs, Errors: errs,
		PerSecond: float64(len(latencies)) / secs, P50Millis: pct(0.50), P95Millis: pct(0.95), P99Millis: pct(0.99),
		FirstError: firstErr}
	if n := len(latencies); n > 0 {
		rep.MaxMillis = float64(latencies[n-1].Microseconds()) / 1000
	}
	return rep, nil
}

// search sends one search and reads its whole answer.
func (l Load) search(ctx context.Context, client *http.Client, q LoadQuery) error {
	body, err := json.Marshal(map[string]any{"user_id": q.User, "tenant_id": q.Tenant, "query": q.Text, "top_k": max(l.TopK, 1)})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.Server+"/v1/memories/search", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if l.Key != "" {
		req.Header.Set("Authorization", "Bearer "+l.Key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, b)
	}
	return nil
}
