package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/embed/minilm"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

const benchUsage = `Usage: lore bench locomo|longmemeval --data FILE [--data-dir DIR] [--out FILE.json] [flags]

Ingests the benchmark through Lore's own ingestion path and reports retrieval
quality (recall, frac, NDCG at k, turn and session level) for the default
pipeline and each ablation, and search latency. Run 'lore bench locomo -h'
for every flag.
`

// bench runs `lore bench locomo|longmemeval`.
func (m *Main) bench(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "observations" {
		return m.benchObservations(ctx, args[1:])
	}
	if len(args) == 0 || (args[0] != "locomo" && args[0] != "longmemeval") {
		fmt.Fprint(m.Stderr, benchUsage)
		return errUsage
	}
	which := args[0]
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("bench "+which, "--data FILE [--data-dir DIR] [--out FILE.json]")
	cfg.register(fs, e)
	data := fs.String("data", "", "the benchmark file (LoCoMo JSON, LongMemEval JSON or JSONL, .gz allowed)")
	out := fs.String("out", "", "write the JSON report to this file")
	limit := fs.Int("limit", 0, "run only the first N conversations (LoCoMo) or questions (LongMemEval)")
	turns := fs.String("turns", "user", "LongMemEval: index user turns only (the official protocol) or all turns")
	ablate := fs.Bool("ablations", true, "also score the ablations (BM25 only, dense only, hybrid, +graph, +entities)")
	reuse := fs.Bool("reuse", false, "keep spaces an earlier run into the same --data-dir fully ingested (only the questions are asked again)")
	tuning := fs.String("retrieval", "", "a JSON file of retrieval settings that override the defaults (keys as in the report's config)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	missesPath := fs.String("misses", "", "write each question whose top 10 miss a gold turn to this JSONL file")
	if err := parse(fs, args[1:], e); err != nil {
		return err
	}
	if *data == "" {
		return lore.Errorf(lore.EINVALID, "--data is required")
	}
	if *turns != "user" && *turns != "all" {
		return lore.Errorf(lore.EINVALID, "--turns must be user or all, got %q", *turns)
	}
	// Without --data-dir the run works in a fresh directory that it removes,
	// so a benchmark never mixes with a real store.
	dataDirSet := false
	fs.Visit(func(f *flag.Flag) { dataDirSet = dataDirSet || f.Name == "data-dir" })
	if !dataDirSet && m.getenv("LORE_DATA_DIR") == "" {
		dir, err := os.MkdirTemp("", "lore-bench-")
		if err != nil {
			return fmt.Errorf("bench: temp data dir: %w", err)
		}
		defer os.RemoveAll(dir)
		cfg.DataDir = dir
		if cfg.ModelDir == "" {
			// The model lives under the default data directory, not the temp one.
			cfg.ModelDir = minilm.DefaultModelDir(e.str("LORE_DATA_DIR", "./lore-data"))
		}
	}

	var ds *bench.Dataset
	var err error
	if which == "locomo" {
		ds, err = bench.LoadLoCoMo(*data)
	} else {
		ds, err = bench.LoadLongMemEval(*data, *turns == "user")
	}
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}

	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	log := m.quietLogger()
	svc := b.ingestService(ingest.DefaultConfig(), log)
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	pipe := b.pipeline()
	if *tuning != "" {
		raw, err := os.ReadFile(*tuning)
		if err != nil {
			return lore.Errorf(lore.EINVALID, "--retrieval: %v", err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&pipe.Config); err != nil {
			return lore.Errorf(lore.EINVALID, "--retrieval %s: %v", *tuning, err)
		}
	}
	runner := bench.Runner{Ingest: svc, Pipeline: pipe, Limit: *limit, Progress: m.Stderr, Reuse: *reuse}
	if *missesPath != "" {
		f, err := os.Create(*missesPath)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		runner.Misses = f
	}
	if !*ablate {
		runner.Ablations = []retrieve.Ablation{}
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("bench: cpu profile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := runner.Run(ctx, ds)
	if err != nil {
		return err
	}
	rep.Data = *data
	rep.Extractor = cfg.Extractor
	if *out != "" {
		raw, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return fmt.Errorf("bench: encode report: %w", err)
		}
		if err := os.WriteFile(*out, append(raw, '\n'), 0o644); err != nil {
			return fmt.Errorf("bench: write %s: %w", *out, err)
		}
	}
	rep.WriteMarkdown(m.Stdout)
	return nil
}
