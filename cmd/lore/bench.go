package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/retrieve"
)

const benchUsage = `Usage: lore bench locomo|longmemeval --data FILE [--split tune|validate|all] [--out FILE.json] [flags]
       lore bench facts --data FILE [--out FILE.json] [--misses FILE.jsonl] [flags]
       lore bench observations --data locomo.json [--split tune|validate|all] [--sample N] [flags]
       lore bench profile --data fixtures/profile/validate.json [--blend] [--rerank] [flags]
       lore bench feedback --data locomo.json [--split tune|validate|all] [--rounds 3] [flags]
       lore bench load --data locomo.json [--server http://127.0.0.1:8420] [--clients 16] [--duration 20s]

locomo, longmemeval: ingests the benchmark through Lore's own ingestion path
and reports retrieval quality (recall, frac, NDCG at k, turn and session
level) for the default pipeline and each ablation, and search latency.
--split scores the tuning or the validation half (bench/README.md).

facts: asks a relational question set (fixtures/relational/*.json) of each
user's own memory and reports pass@1 and pass@3 by kind, for the default
pipeline and without the graph.

feedback: simulates verdicts on half of each LoCoMo conversation's questions
and scores the other half with each ranking signal alone and all together
against all off (issue 14; bench/feedback.go).

observations: ingests LoCoMo and scores the extracted facts against its
observation gold facts: coverage, precision and echo rate (bench/README.md,
Fact quality).

profile: learns each user's profile from fixtures/profile/*.json and reports
profile precision and recall, nDCG@5 personalized vs not, factual rankings
changed, and search latency with query inference off and on.

Run 'lore bench locomo -h' or 'lore bench facts -h' for every flag.
`

// bench runs `lore bench locomo|longmemeval`.
func (m *Main) bench(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "facts" {
		return m.benchFacts(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "profile" {
		return m.benchProfile(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "observations" {
		return m.benchObservations(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "feedback" {
		return m.benchFeedback(ctx, args[1:])
	}
	if len(args) > 0 && args[0] == "load" {
		return m.benchLoad(ctx, args[1:])
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
	split := fs.String("split", "all", "score the tuning half, the validation half or all of the dataset: tune, validate or all (bench/README.md, Validation protocol)")
	limit := fs.Int("limit", 0, "run only the first N conversations (LoCoMo) or questions (LongMemEval) of the split")
	turns := fs.String("turns", "user", "LongMemEval: index user turns only (the official protocol) or all turns")
	ablate := fs.Bool("ablations", true, "also score the ablations (BM25 only, dense only, hybrid, +graph, +entities)")
	group := fs.String("type", "", "ask only the questions of one LongMemEval question type or LoCoMo category (and ingest only their spaces)")
	ingestWorkers := fs.Int("ingest-workers", 0, "conversations (LoCoMo) or questions (LongMemEval) ingested at once, each its own user; 0: one per CPU")
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
	half, err := bench.ParseSplit(*split)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "--%v", err)
	}
	if *turns != "user" && *turns != "all" {
		return lore.Errorf(lore.EINVALID, "--turns must be user or all, got %q", *turns)
	}
	cleanup, err := benchDataDir(fs, &cfg, e)
	if err != nil {
		return err
	}
	defer cleanup()

	var ds *bench.Dataset
	if which == "locomo" {
		ds, err = bench.LoadLoCoMo(*data)
	} else {
		ds, err = bench.LoadLongMemEval(*data, *turns == "user")
	}
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}
	ds = ds.Half(half).OnlyGroup(*group)
	if len(ds.Spaces) == 0 {
		return lore.Errorf(lore.EINVALID, "--type %q: no question of this type in the split", *group)
	}

	svc, pipe, err := m.openBench(ctx, cfg, *tuning)
	if err != nil {
		return err
	}
	if *ingestWorkers < 0 {
		return lore.Errorf(lore.EINVALID, "--ingest-workers is %d, want 0 (one per CPU) or more", *ingestWorkers)
	}
	runner := bench.Runner{Ingest: svc, Pipeline: pipe, Limit: *limit, Progress: m.Stderr, Reuse: *reuse, IngestWorkers: *ingestWorkers}
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
		if err := writeJSONReport(*out, rep); err != nil {
			return err
		}
	}
	rep.WriteMarkdown(m.Stdout)
	return nil
}
