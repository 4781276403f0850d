package main

import (
	"context"
	"os"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/retrieve"
)

// benchFeedback runs `lore bench feedback` (bench.FeedbackRunner).
func (m *Main) benchFeedback(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("bench feedback", "--data locomo.json [--split tune|validate|all] [--out FILE.json] [flags]")
	cfg.register(fs, e)
	data := fs.String("data", "", "the LoCoMo JSON file")
	out := fs.String("out", "", "write the JSON report to this file")
	split := fs.String("split", "all", "score the tuning half, the validation half or all conversations")
	limit := fs.Int("limit", 0, "run only the first N conversations of the split")
	reuse := fs.Bool("reuse", false, "keep conversations an earlier run into the same --data-dir fully ingested")
	rounds := fs.Int("rounds", 5, "how often half A is asked and judged: 3 verdicts (min_sample_size) let the success signal lift, and each round looks about 10 results deeper than the last (success_penalty)")
	tuning := fs.String("retrieval", "", "a JSON file of retrieval settings that override the defaults (keys as in the report's config)")
	feedback := fs.Bool("feedback", true, "the feedback signal when on: scores × relevance")
	wPersonal := fs.Float64("w-personal", 0.3, "w_personal when on")
	wFrequency := fs.Float64("w-frequency", 0.3, "w_frequency when on")
	wSuccess := fs.Float64("w-success", 1.0, "w_success when on")
	multiply := fs.Bool("multiply", false, "multiply when on: personal, frequency and success scale the fused score instead of adding to it")
	bySource := fs.Bool("by-source", false, "by_source when on: a memory shares the signals of memories drawn from the same source turn")
	unhelpfulStep := fs.Float64("unhelpful-step", lore.DefaultFeedbackRule().UnhelpfulStep, "the feedback rule's unhelpful_step (≤ 0): how much an unhelpful verdict lowers relevance")
	penalty := fs.Float64("success-penalty", retrieve.DefaultPersonal().SuccessPenalty, "success_penalty when on: the factor of a memory judged more unhelpful than helpful for the same query")
	dump := fs.String("dump", "", "write each question's ranking with every signal off, and the success rows, as JSON lines to this file (for offline study)")
	minSample := fs.Int("min-sample", retrieve.DefaultPersonal().MinSampleSize, "min_sample_size: verdicts for one query before success lifts a memory")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if *data == "" {
		return lore.Errorf(lore.EINVALID, "--data is required")
	}
	half, err := bench.ParseSplit(*split)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "--%v", err)
	}
	cleanup, err := benchDataDir(fs, &cfg, e)
	if err != nil {
		return err
	}
	defer cleanup()
	ds, err := bench.LoadLoCoMo(*data)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}
	ds = ds.Half(half)
	svc, pipe, err := m.openBench(ctx, cfg, *tuning)
	if err != nil {
		return err
	}
	if pipe.Feedback == nil {
		return lore.Errorf(lore.EINVALID, "this store keeps no feedback")
	}
	p := &pipe.Config.Personal
	p.Feedback, p.Personal, p.Frequency, p.Success = *feedback, *wPersonal, *wFrequency, *wSuccess
	p.Multiply = *multiply
	p.BySource, p.Rule.UnhelpfulStep, p.SuccessPenalty, p.MinSampleSize = *bySource, *unhelpfulStep, *penalty, *minSample
	if err := p.Rule.Validate(); err != nil {
		return err
	}
	runner := bench.FeedbackRunner{Ingest: svc, Pipeline: pipe, Feedback: pipe.Feedback, Limit: *limit, Reuse: *reuse, Progress: m.Stderr, Rounds: *rounds}
	if *dump != "" {
		f, err := os.Create(*dump)
		if err != nil {
			return err
		}
		defer f.Close()
		runner.Dump = f
	}
	rep, err := runner.Run(ctx, ds)
	if err != nil {
		return err
	}
	rep.Data = *data
	if *out != "" {
		if err := writeJSONReport(*out, rep); err != nil {
			return err
		}
	}
	rep.WriteMarkdown(m.Stdout)
	return nil
}
