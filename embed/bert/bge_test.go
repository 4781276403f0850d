package bert

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/internal/onnxrt"
)

// modelReference is a fixture of reference ids and vectors for a model
// with prefixes, written by scripts/langchain4j/reference.py from the
// full-precision model: bge-reference.json (its query instruction) or
// e5v2-reference.json (e5's prefixes, already in the texts).
type modelReference struct {
	MaxSeqLength     int    `json:"max_seq_length"`
	QueryInstruction string `json:"query_instruction"`
	QueryPrefix      string `json:"query_prefix"`
	PassagePrefix    string `json:"passage_prefix"`
	Sentences        []struct {
		Text   string    `json:"text"`
		IDs    []int32   `json:"ids"`
		Vector []float32 `json:"vector"`
	} `json:"sentences"`
}

func loadModelReference(tb testing.TB, file string) *modelReference {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(fixtureDir, file))
	if err != nil {
		tb.Fatalf("read reference: %v", err)
	}
	var ref modelReference
	if err := json.Unmarshal(raw, &ref); err != nil {
		tb.Fatalf("parse reference: %v", err)
	}
	return &ref
}

// checkNearReference: each vector of got is within cosine minEach of the
// full-precision one in want, and on average within minMean.
func checkNearReference(t *testing.T, texts []string, got, want [][]float32, minEach, minMean float64) {
	t.Helper()
	var sum float64
	for i := range want {
		c := cosine(got[i], want[i])
		sum += c
		if c < minEach {
			t.Errorf("sentence %d %q: cosine %.4f to the full-precision vector, want >= %.2f", i, texts[i], c, minEach)
		}
	}
	mean := sum / float64(len(want))
	if mean < minMean {
		t.Errorf("mean cosine %.4f, want >= %.2f", mean, minMean)
	}
	t.Logf("mean cosine to the full-precision vectors: %.4f", mean)
}

// checkTokenizerMatches: the models share BERT's uncased WordPiece, so the
// Go tokenizer must give Hugging Face tokenizers' ids for every text.
func checkTokenizerMatches(t *testing.T, ref *modelReference) {
	t.Helper()
	tok := fixtureTokenizer(t)
	for i, s := range ref.Sentences {
		if got := tok.Encode(s.Text); !slices.Equal(got, s.IDs) {
			t.Errorf("sentence %d %q: ids %v, want %v", i, s.Text, got, s.IDs)
		}
	}
}

// TestBGEReferenceMatchesModel keeps the fixture and the model description
// in step: same length limit, same query instruction.
func TestBGEReferenceMatchesModel(t *testing.T) {
	ref := loadModelReference(t, "bge-reference.json")
	m := BGESmall()
	if ref.MaxSeqLength != m.MaxSeqLength || ref.QueryInstruction != m.QueryPrefix {
		t.Fatalf("fixture has max_seq_length %d and instruction %q, BGESmall() %d and %q",
			ref.MaxSeqLength, ref.QueryInstruction, m.MaxSeqLength, m.QueryPrefix)
	}
}

// TestBGETokenizerMatchesReference: bge's tokenizer.json is BERT's uncased
// WordPiece, so the Go tokenizer must give Hugging Face tokenizers' ids.
func TestBGETokenizerMatchesReference(t *testing.T) {
	checkTokenizerMatches(t, loadModelReference(t, "bge-reference.json"))
}

// TestBGEEmbedMatchesReference is the correctness test of the installed
// int8 model (with the pooling pool.py adds) against the full-precision one.
// int8 costs a little: every vector within cosine 0.94 (one-word and full-width texts are
// the farthest), on average 0.99.
func TestBGEEmbedMatchesReference(t *testing.T) {
	e := mustOpen(t, Config{Model: BGESmall(), ModelDir: bgeModelDir(t)})
	ref := loadModelReference(t, "bge-reference.json")
	texts := make([]string, len(ref.Sentences))
	for i, s := range ref.Sentences {
		texts[i] = s.Text
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	want := make([][]float32, len(ref.Sentences))
	for i, s := range ref.Sentences {
		want[i] = s.Vector
	}
	checkNearReference(t, texts, vecs, want, 0.94, 0.99)
}

// TestBGEQueriesCarryTheInstruction: EmbedQuery is Embed of the instruction
// and the query, Embed of a stored text has no instruction, and Info
// records the instruction so a store refuses vectors made without it.
func TestBGEQueriesCarryTheInstruction(t *testing.T) {
	dir := bgeModelDir(t)
	e := mustOpen(t, Config{Model: BGESmall(), ModelDir: dir})
	ctx := context.Background()
	const q = "Where does my sister live?"
	query, err := e.EmbedQuery(ctx, []string{q})
	if err != nil {
		t.Fatal(err)
	}
	both, err := e.Embed(ctx, []string{BGESmall().QueryPrefix + q, q})
	if err != nil {
		t.Fatal(err)
	}
	if got := cosine(query[0], both[0]); got < 0.99999 {
		t.Errorf("cosine(EmbedQuery(q), Embed(instruction+q))=%.6f, want 1", got)
	}
	if got := cosine(query[0], both[1]); got > 0.999 {
		t.Errorf("cosine(EmbedQuery(q), Embed(q))=%.6f: the instruction changed nothing", got)
	}
	sums, err := onnxrt.VerifyModelDir(dir, BGESmall().Name, Dim, []string{modelFile}, func(format string, args ...any) error {
		return fmt.Errorf(format, args...)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := lore.EmbedderInfo{Name: "bge-small-en-v1.5-q", Dim: Dim, Checksum: "sha256:" + sums[modelFile], QueryPrefix: BGESmall().QueryPrefix}
	if got := e.Info(); got != want {
		t.Fatalf("Info()=%+v, want %+v", got, want)
	}
}

// TestBGEVectorsIgnoreBatchMates: each text runs alone (OneTextPerRun), so
// its vector is the same alone and in any batch.
func TestBGEVectorsIgnoreBatchMates(t *testing.T) {
	checkVectorsIgnoreBatchMates(t, mustOpen(t, Config{Model: BGESmall(), ModelDir: bgeModelDir(t)}))
}

// checkVectorsIgnoreBatchMates: a batch of texts, run one at a time on
// parallel inferences (embedEach), gives each text its vector alone, in
// the batch's order; a cancelled context stops it with the context's error.
func checkVectorsIgnoreBatchMates(t *testing.T, e *Embedder) {
	t.Helper()
	ctx := context.Background()
	texts := []string{"I moved to Toronto in March.", "a", strings.Repeat("long text about hiking ", 80), "Emma lives in Rome.", "My dog Biscuit is a beagle.", "We play canasta on Thursdays."}
	batch, err := e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		alone, err := e.Embed(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(alone[0], batch[i]) {
			t.Errorf("text %d: vector in a batch differs from its vector alone (cosine %.6f)", i, cosine(alone[0], batch[i]))
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Embed(cancelled, texts); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: %v, want context.Canceled", err)
	}
}

// TestBGEMissingModelSaysHowToInstall: the error names bge's fetch script,
// not MiniLM's.
func TestBGEMissingModelSaysHowToInstall(t *testing.T) {
	_, err := New(Config{Model: BGESmall(), ModelDir: filepath.Join(t.TempDir(), "absent")})
	if lore.ErrorCode(err) != lore.EUNAVAILABLE || !strings.Contains(lore.ErrorMessage(err), "make model-bge") {
		t.Fatalf("New=%v, want EUNAVAILABLE naming `make model-bge`", err)
	}
}
