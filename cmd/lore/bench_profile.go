package main

import (
	"context"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/retrieve"
)

// benchProfile runs `lore bench profile`: the profile benchmark.
func (m *Main) benchProfile(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("bench profile", "--data FILE [--blend] [--alpha A] [--rerank] [--rerank-weight W] [--evidence] [--out FILE.json]")
	cfg.register(fs, e)
	data := fs.String("data", "", "the profile benchmark (fixtures/profile/tune.json or validate.json)")
	out := fs.String("out", "", "write the JSON report to this file")
	def := retrieve.DefaultConfig().Profile
	blend := fs.Bool("blend", true, "personalized run: blend the query embedding with the profile")
	alpha := fs.Float64("alpha", def.Alpha, "personalized run: the query's weight in the blend (at least 0.5)")
	rerank := fs.Bool("rerank", true, "personalized run: profile-aware rerank")
	weight := fs.Float64("rerank-weight", def.RerankWeight, "personalized run: the rerank's factor")
	evidence := fs.Bool("evidence", false, "personalized run: boost the memories the profile entries closest to the query were learned from")
	evWeight := fs.Float64("evidence-weight", def.EvidenceWeight, "personalized run: the evidence boost's factor")
	passes := fs.Int("latency-passes", 3, "times each search is timed with inference off and on")
	tuning := fs.String("retrieval", "", "a JSON file of retrieval settings that override the defaults (keys as in the report's config)")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if *data == "" {
		return lore.Errorf(lore.EINVALID, "--data is required")
	}
	personal := def
	personal.Blend, personal.Alpha, personal.Rerank, personal.RerankWeight = *blend, *alpha, *rerank, *weight
	personal.Evidence, personal.EvidenceWeight = *evidence, *evWeight
	if err := personal.Validate(); err != nil {
		return err
	}
	set, err := bench.LoadProfileSet(*data)
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
	runner := bench.ProfileRunner{Ingest: svc, Pipeline: pipe, Personal: personal, LatencyPasses: *passes, Progress: m.Stderr}
	rep, err := runner.Run(ctx, set)
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
