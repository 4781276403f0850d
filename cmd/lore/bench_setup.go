package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/bert"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// benchDataDir points cfg at a fresh directory when neither --data-dir nor
// LORE_DATA_DIR is set, so a benchmark never mixes with a real store. The
// returned cleanup removes it (a no-op otherwise).
func benchDataDir(fs *flag.FlagSet, cfg *backendConfig, e *env) (cleanup func(), err error) {
	dataDirSet := false
	fs.Visit(func(f *flag.Flag) { dataDirSet = dataDirSet || f.Name == "data-dir" })
	if dataDirSet || e.get("LORE_DATA_DIR") != "" {
		return func() {}, nil
	}
	dir, err := os.MkdirTemp("", "lore-bench-")
	if err != nil {
		return nil, fmt.Errorf("bench: temp data dir: %w", err)
	}
	cfg.DataDir = dir
	// The models live under the default data directory, not the temp one.
	home := e.str("LORE_DATA_DIR", "./lore-data")
	if cfg.ModelDir == "" {
		cfg.ModelDir = bert.MiniLM().DefaultModelDir(home)
	}
	if cfg.BGEModelDir == "" {
		cfg.BGEModelDir = bert.BGESmall().DefaultModelDir(home)
	}
	if cfg.MiniLMQModelDir == "" {
		cfg.MiniLMQModelDir = bert.MiniLMQ().DefaultModelDir(home)
	}
	if cfg.E5V2ModelDir == "" {
		cfg.E5V2ModelDir = bert.E5SmallV2().DefaultModelDir(home)
	}
	return func() { os.RemoveAll(dir) }, nil
}

// applyRetrievalFile overrides pipe's settings with those of a JSON file
// (keys as in a report's config); unknown keys are an error.
func applyRetrievalFile(pipe *retrieve.Pipeline, path string) error {
	if path == "" {
		return nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "--retrieval: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pipe.Config); err != nil {
		return lore.Errorf(lore.EINVALID, "--retrieval %s: %v", path, err)
	}
	if err := pipe.Config.Validate(); err != nil {
		return lore.Errorf(lore.EINVALID, "--retrieval %s: %s", path, lore.ErrorMessage(err))
	}
	return nil
}

// applyRetrieval is applyRetrievalFile for a command that also ingests:
// the episode keys svc writes hold the turn before within the window the
// pipeline walks, so both take it from the same settings.
func applyRetrieval(pipe *retrieve.Pipeline, svc *ingest.Service, path string) error {
	if err := applyRetrievalFile(pipe, path); err != nil {
		return err
	}
	svc.Config.ContextWindow = pipe.Config.ContextWindow
	return nil
}

// writeJSONReport writes a report as indented JSON to path.
func writeJSONReport(path string, rep any) error {
	raw, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("bench: encode report: %w", err)
	}
	if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
		return fmt.Errorf("bench: write %s: %w", path, err)
	}
	return nil
}

// openBench opens the bench's data directory and returns what every bench
// mode runs: the ingest service, its store checked against the configured
// embedder, and the retrieval pipeline with the --retrieval overrides
// (tuning, a file path or "") applied to both.
func (m *Main) openBench(ctx context.Context, cfg backendConfig, tuning string) (*ingest.Service, *retrieve.Pipeline, error) {
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if b.Embedder == nil && cfg.Embedder != "none" {
		// serve goes on without dense retrieval when MiniLM is missing; a
		// benchmark would quietly measure something else.
		return nil, nil, lore.Errorf(lore.EUNAVAILABLE, "bench: the embedding model is not installed under %s: run `make model`, point --minilm-q-model-dir (or --model-dir with --embedder minilm) at it, or pass --embedder none to measure without dense retrieval", cfg.DataDir)
	}
	svc := b.ingestService(ingest.DefaultConfig(), m.quietLogger())
	if err := svc.CheckEmbedder(ctx); err != nil {
		return nil, nil, err
	}
	pipe := b.pipeline()
	if err := applyRetrieval(pipe, svc, tuning); err != nil {
		return nil, nil, err
	}
	return svc, pipe, nil
}
