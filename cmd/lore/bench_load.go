package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
)

// benchLoad runs `lore bench load`: concurrent searchers against a Lore
// server on this machine, for a bounded time.
func (m *Main) benchLoad(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	fs := m.flagSet("bench load", "--data FILE [--server URL] [--clients N] [--duration D]")
	server := fs.String("server", e.str("LORE_SERVER", "http://127.0.0.1:8420"), "the server to load; must be a loopback address (env LORE_SERVER)")
	data := fs.String("data", "", "LoCoMo or LongMemEval file whose questions are the queries (ingested before with `lore bench locomo|longmemeval --data-dir D` and served with `lore serve --data-dir D`)")
	which := fs.String("dataset", "locomo", "the --data file's format: locomo or longmemeval")
	split := fs.String("split", "all", "ask the questions of the tune, validate or all half")
	clients := fs.Int("clients", 16, "concurrent searchers")
	duration := fs.Duration("duration", 20*time.Second, "how long to measure (at most 10m)")
	warmup := fs.Duration("warmup", 3*time.Second, "how long to send before measuring")
	topK := fs.Int("top-k", 10, "results per search")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if *data == "" {
		return lore.Errorf(lore.EINVALID, "--data is required")
	}
	if *duration <= 0 || *duration > 10*time.Minute || *warmup < 0 || *clients < 1 || *clients > 1024 {
		return lore.Errorf(lore.EINVALID, "--duration must be in (0, 10m], --warmup ≥ 0 and --clients in [1, 1024]")
	}
	if err := bench.CheckLoopback(*server); err != nil {
		return err
	}
	half, err := bench.ParseSplit(*split)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "--%v", err)
	}
	var ds *bench.Dataset
	switch *which {
	case "locomo":
		ds, err = bench.LoadLoCoMo(*data)
	case "longmemeval":
		ds, err = bench.LoadLongMemEval(*data, true)
	default:
		return lore.Errorf(lore.EINVALID, "--dataset must be locomo or longmemeval, got %q", *which)
	}
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}
	load := bench.Load{Server: *server, Key: e.str("LORE_API_KEY", ""), Clients: *clients, Duration: *duration, Warmup: *warmup, TopK: *topK}
	rep, err := load.Run(ctx, bench.LoadQueries(ds.Half(half)))
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintf(m.Stdout, "%d clients, %.1f s: %d searches, %d errors, %.1f searches/s; latency p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		rep.Clients, rep.Seconds, rep.Requests, rep.Errors, rep.PerSecond, rep.P50Millis, rep.P95Millis, rep.P99Millis, rep.MaxMillis)
	if rep.FirstError != "" {
		fmt.Fprintf(m.Stdout, "first error: %s\n", rep.FirstError)
	}
	return nil
}
