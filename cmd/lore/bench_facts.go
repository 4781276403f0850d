package main

import (
	"context"
	"fmt"
	"os"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
)

// benchFacts runs `lore bench facts`: the relational question set.
func (m *Main) benchFacts(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("bench facts", "--data FILE [--out FILE.json] [--misses FILE.jsonl]")
	cfg.register(fs, e)
	data := fs.String("data", "", "the relational question set (fixtures/relational/*.json)")
	out := fs.String("out", "", "write the JSON report to this file")
	missesPath := fs.String("misses", "", "write each question the default pipeline fails at 1 to this JSONL file (expected, stale, top 3 with scores)")
	reuse := fs.Bool("reuse", false, "keep users an earlier run into the same --data-dir ingested fully (only the questions are asked again)")
	tuning := fs.String("retrieval", "", "a JSON file of retrieval settings that override the defaults (keys as in the report's config)")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if *data == "" {
		return lore.Errorf(lore.EINVALID, "--data is required")
	}
	set, err := bench.LoadFactSet(*data)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}
	cleanup, err := benchDataDir(fs, &cfg, e)
	if err != nil {
		return err
	}
	defer cleanup()

	svc, pipe, err := m.openBench(ctx, cfg, *tuning)
	if err != nil {
		return err
	}
	runner := bench.FactsRunner{Ingest: svc, Pipeline: pipe, Progress: m.Stderr, Reuse: *reuse}
	if *missesPath != "" {
		f, err := os.Create(*missesPath)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer f.Close()
		runner.Misses = f
	}
	rep, err := runner.Run(ctx, set)
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
