package bert

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/internal/onnxrt"
	"github.com/lore-memory/lore/storetest"
)

// fixtureDir holds the reference vectors and the vocabulary, relative to
// this package.
const fixtureDir = "../../fixtures/embeddings"

// reference is fixtures/embeddings/reference.json, written by
// scripts/model/reference.py with sentence-transformers.
type reference struct {
	MaxSeqLength int `json:"max_seq_length"`
	Sentences    []struct {
		Text   string    `json:"text"`
		IDs    []int32   `json:"ids"`
		Vector []float32 `json:"vector"`
	} `json:"sentences"`
	TokenizerCases []struct {
		Text string  `json:"text"`
		IDs  []int32 `json:"ids"`
	} `json:"tokenizer_cases"`
}

func loadReference(tb testing.TB) *reference {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "reference.json"))
	if err != nil {
		tb.Fatalf("read reference: %v", err)
	}
	var ref reference
	if err := json.Unmarshal(raw, &ref); err != nil {
		tb.Fatalf("parse reference: %v", err)
	}
	return &ref
}

func fixtureTokenizer(tb testing.TB) *Tokenizer {
	tb.Helper()
	f, err := os.Open(filepath.Join(fixtureDir, "vocab.txt"))
	if err != nil {
		tb.Fatalf("open vocab: %v", err)
	}
	defer f.Close()
	tok, err := NewTokenizer(f, MiniLM().MaxSeqLength)
	if err != nil {
		tb.Fatalf("NewTokenizer: %v", err)
	}
	return tok
}

// modelDir returns the installed MiniLM's directory: LORE_MODEL_DIR, or the
// one `make model` fills in the repository. When neither holds a model the
// test is skipped with a how-to, except under CI=true, where it fails.
func modelDir(tb testing.TB) string {
	tb.Helper()
	return installedDir(tb, MiniLM(), "LORE_MODEL_DIR", "make model")
}

// bgeModelDir is modelDir for BGESmall: LORE_BGE_MODEL_DIR or `make
// model-bge`'s directory.
func bgeModelDir(tb testing.TB) string {
	tb.Helper()
	return installedDir(tb, BGESmall(), "LORE_BGE_MODEL_DIR", "make model-bge")
}

func installedDir(tb testing.TB, m Model, envVar, install string) string {
	tb.Helper()
	if !cgoEnabled {
		storetest.Unavailable(tb, "the built-in embedders need cgo: run the tests with CGO_ENABLED=1")
	}
	dir := os.Getenv(envVar)
	if dir == "" {
		dir = m.DefaultModelDir("../../lore-data")
	}
	if _, err := os.Stat(filepath.Join(dir, onnxrt.ManifestFile)); err != nil {
		storetest.Unavailable(tb, "no "+m.Name+" model in "+dir+": run `"+install+"` in the repository root, or set "+envVar)
	}
	return dir
}

// mustNew loads the installed MiniLM and closes it when the test ends.
func mustNew(tb testing.TB, threads int) *Embedder {
	tb.Helper()
	return mustOpen(tb, Config{ModelDir: modelDir(tb), Threads: threads})
}

func mustOpen(tb testing.TB, cfg Config) *Embedder {
	tb.Helper()
	e, err := New(cfg)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(func() {
		if err := e.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return e
}

// cosine is lore.Cosine, named short for the assertions.
func cosine(a, b []float32) float64 { return lore.Cosine(a, b) }

// e5v2ModelDir is modelDir for E5SmallV2: LORE_E5V2_MODEL_DIR or `make
// model-e5v2`'s directory.
func e5v2ModelDir(tb testing.TB) string {
	tb.Helper()
	return installedDir(tb, E5SmallV2(), "LORE_E5V2_MODEL_DIR", "make model-e5v2")
}
