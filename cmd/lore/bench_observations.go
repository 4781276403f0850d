package main

import (
	"context"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/ingest"
)

// benchObservations runs `lore bench observations`: it ingests LoCoMo's
// conversations through the normal ingest path and scores the facts the
// extractor stored against LoCoMo's `observation` gold facts.
func (m *Main) benchObservations(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("bench observations", "--data locomo.json [--split tune|validate|all] [--sample N] [--out FILE.json]")
	cfg.register(fs, e)
	data := fs.String("data", "", "the LoCoMo JSON file (.gz allowed)")
	split := fs.String("split", "all", "score the tuning half, the validation half or all conversations (bench/README.md, Validation protocol)")
	out := fs.String("out", "", "write the JSON report to this file")
	limit := fs.Int("limit", 0, "run only the first N conversations of the split")
	sample := fs.Int("sample", 0, "also list N unmatched extracted facts and N uncovered gold facts, for reading")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if *data == "" {
		return lore.Errorf(lore.EINVALID, "--data is required")
	}
	cleanup, err := benchDataDir(fs, &cfg, e)
	if err != nil {
		return err
	}
	defer cleanup()
	all, err := bench.LoadLoCoMo(*data)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}
	gold, err := bench.LoadLoCoMoObservations(*data, all)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "read %s: %v", *data, err)
	}
	half, err := bench.ParseSplit(*split)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "--%s", err)
	}
	ds := all.Half(half)
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	svc := b.ingestService(ingest.DefaultConfig(), m.quietLogger())
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	if svc.Embedder == nil {
		return lore.Errorf(lore.EINVALID, "fact quality is scored with MiniLM embeddings: pass --model-dir or --embedder minilm")
	}
	runner := bench.Runner{Ingest: svc, Limit: *limit, Progress: m.Stderr, Tenant: "bench-observations"}
	q, err := runner.Observations(ctx, ds, gold, *sample)
	if err != nil {
		return err
	}
	q.Data, q.Extractor = *data, cfg.Extractor
	if *out != "" {
		if err := writeJSONReport(*out, q); err != nil {
			return err
		}
	}
	q.WriteMarkdown(m.Stdout)
	return nil
}
