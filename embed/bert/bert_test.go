package bert

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/internal/onnxrt"
)

// TestNewRejectsBadModelDir covers every way a model directory can be
// unusable; none of them gets as far as loading ONNX Runtime.
func TestNewRejectsBadModelDir(t *testing.T) {
	const sumOfX = "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881" // sha256("x")
	manifestOf := func(name string, dim int, model string) string {
		return fmt.Sprintf(`{"name":%q,"dim":%d,"files":{"model.onnx":{"sha256":%q},"vocab.txt":{"sha256":%q},"libonnxruntime.so":{"sha256":%q}}}`,
			name, dim, model, sumOfX, sumOfX)
	}
	tests := []struct {
		name     string
		files    map[string]string // nil: the directory does not exist
		cfg      func(dir string) Config
		wantCode string
		wantMsg  string
	}{
		{
			name:     "directory not set",
			cfg:      func(string) Config { return Config{} },
			wantCode: lore.EINVALID, wantMsg: "model directory is not set",
		},
		{
			name:     "negative threads",
			files:    map[string]string{},
			cfg:      func(dir string) Config { return Config{ModelDir: dir, Threads: -1} },
			wantCode: lore.EINVALID, wantMsg: "threads is -1",
		},
		{
			name:     "directory missing",
			wantCode: lore.EUNAVAILABLE, wantMsg: "not installed; run `make model`",
		},
		{
			name:     "no manifest",
			files:    map[string]string{"model.onnx": "x", "vocab.txt": "x"},
			wantCode: lore.EUNAVAILABLE, wantMsg: "not installed; run `make model`",
		},
		{
			name:     "manifest not json",
			files:    map[string]string{"manifest.json": "{"},
			wantCode: lore.EUNAVAILABLE, wantMsg: "not valid JSON",
		},
		{
			name:     "manifest of another model",
			files:    map[string]string{"manifest.json": manifestOf("bge-small", 384, sumOfX)},
			wantCode: lore.EUNAVAILABLE, wantMsg: `describes "bge-small"`,
		},
		{
			name:     "model file missing",
			files:    map[string]string{"manifest.json": manifestOf(MiniLM().Name, Dim, sumOfX), "vocab.txt": "x", "libonnxruntime.so": "x"},
			wantCode: lore.EUNAVAILABLE, wantMsg: "model.onnx is missing; run `make model`",
		},
		{
			name:     "model file corrupt",
			files:    map[string]string{"manifest.json": manifestOf(MiniLM().Name, Dim, strings.Repeat("0", 64)), "model.onnx": "x", "vocab.txt": "x", "libonnxruntime.so": "x"},
			wantCode: lore.EUNAVAILABLE, wantMsg: "model.onnx has sha256 " + sumOfX,
		},
		{
			name:     "library missing",
			files:    map[string]string{"manifest.json": manifestOf(MiniLM().Name, Dim, sumOfX), "model.onnx": "x", "vocab.txt": "x"},
			wantCode: lore.EUNAVAILABLE, wantMsg: "libonnxruntime.so is missing",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "model")
			if tt.files != nil {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				for name, content := range tt.files {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			cfg := Config{ModelDir: dir}
			if tt.cfg != nil {
				cfg = tt.cfg(dir)
			}
			e, err := New(cfg)
			if err == nil {
				e.Close()
				t.Fatalf("New succeeded, want %s error", tt.wantCode)
			}
			if got := lore.ErrorCode(err); got != tt.wantCode {
				t.Errorf("code=%q, want %q (err: %v)", got, tt.wantCode, err)
			}
			if !strings.Contains(lore.ErrorMessage(err), tt.wantMsg) {
				t.Errorf("message=%q, want it to contain %q", lore.ErrorMessage(err), tt.wantMsg)
			}
		})
	}
}

func TestDefaultModelDir(t *testing.T) {
	for m, want := range map[Model]string{MiniLM(): "/var/lib/lore/models/all-MiniLM-L6-v2", BGESmall(): "/var/lib/lore/models/bge-small-en-v1.5-q"} {
		if got := m.DefaultModelDir("/var/lib/lore"); got != want {
			t.Errorf("%s: DefaultModelDir=%q, want %q", m.Name, got, want)
		}
	}
}

// TestEmbedMatchesReference is the correctness test: every fixture vector
// from sentence-transformers must be matched with cosine >= 0.9999.
func TestEmbedMatchesReference(t *testing.T) {
	e := mustNew(t, 0)
	ref := loadReference(t)
	texts := make([]string, len(ref.Sentences))
	for i, s := range ref.Sentences {
		texts[i] = s.Text
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed: %v", err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("len(vectors)=%d, want %d", len(vecs), len(texts))
	}
	for i, s := range ref.Sentences {
		name := fmt.Sprintf("%02d", i)
		t.Run(name, func(t *testing.T) {
			if len(vecs[i]) != Dim {
				t.Fatalf("len(vector)=%d, want %d", len(vecs[i]), Dim)
			}
			if got := cosine(vecs[i], s.Vector); got < 0.9999 {
				t.Errorf("cosine(%q)=%.6f, want >= 0.9999", s.Text, got)
			}
			var norm float64
			for _, x := range vecs[i] {
				norm += float64(x) * float64(x)
			}
			if math.Abs(math.Sqrt(norm)-1) > 1e-5 {
				t.Errorf("|vector|=%.7f, want 1", math.Sqrt(norm))
			}
		})
	}
}

// TestEmbedBatchingIsInvariant checks that padding inside a batch does not
// leak into the vectors: each text embedded alone gives the batch's vector.
func TestEmbedBatchingIsInvariant(t *testing.T) {
	e := mustNew(t, 0)
	texts := []string{"a", "I live in Paris and work at the museum near the river.", "", "🍕", strings.Repeat("long text ", 300)}
	batch, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatalf("Embed(batch): %v", err)
	}
	for i, text := range texts {
		one, err := e.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatalf("Embed(%q): %v", text, err)
		}
		if got := cosine(one[0], batch[i]); got < 0.99999 {
			t.Errorf("cosine(alone, in batch) for text %d=%.7f, want >= 0.99999", i, got)
		}
	}
	if got := cosine(batch[0], batch[1]); got > 0.95 {
		t.Errorf("cosine of unrelated texts=%.4f, want them apart (order kept?)", got)
	}
}

func TestEmbedEdgeCases(t *testing.T) {
	e := mustNew(t, 0)
	t.Run("no texts", func(t *testing.T) {
		got, err := e.Embed(context.Background(), nil)
		if err != nil || len(got) != 0 {
			t.Fatalf("Embed(nil)=%v, %v; want empty, nil", got, err)
		}
	})
	t.Run("canceled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := e.Embed(ctx, []string{"hello"})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err=%v, want context.Canceled", err)
		}
	})
	t.Run("more texts than one batch", func(t *testing.T) {
		texts := make([]string, 3*onnxrt.BatchRows(1, 1<<20)+5) // the most rows a batch holds, three times and more
		for i := range texts {
			texts[i] = fmt.Sprintf("sentence number %d about topic %d", i, i%7)
		}
		vecs, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		alone, err := e.Embed(context.Background(), texts[len(texts)-1:])
		if err != nil {
			t.Fatal(err)
		}
		if got := cosine(vecs[len(vecs)-1], alone[0]); got < 0.99999 {
			t.Fatalf("cosine(last in big batch, alone)=%.7f, want >= 0.99999", got)
		}
	})
}

func TestInfo(t *testing.T) {
	e := mustNew(t, 0)
	sums, err := onnxrt.VerifyModelDir(modelDir(t), MiniLM().Name, Dim, []string{modelFile}, func(format string, args ...any) error {
		return fmt.Errorf(format, args...)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := lore.EmbedderInfo{Name: MiniLM().Name, Dim: Dim, Checksum: "sha256:" + sums[modelFile]}
	if got := e.Info(); got != want {
		t.Fatalf("Info()=%+v, want %+v", got, want)
	}
}

// TestConcurrentEmbedders runs two embedders, one shared runtime, from
// several goroutines, and closes one while the other keeps working.
func TestConcurrentEmbedders(t *testing.T) {
	a := mustNew(t, 1)
	b := mustNew(t, 1)
	texts := []string{"where do I live?", "my dog is called Rex", "meeting at noon tomorrow"}
	want, err := a.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		e := a
		if g%2 == 1 {
			e = b
		}
		wg.Go(func() {
			got, err := e.Embed(context.Background(), texts)
			if err != nil {
				errs <- err
				return
			}
			for i := range texts {
				if c := cosine(got[i], want[i]); c < 0.99999 {
					errs <- fmt.Errorf("goroutine %d text %d: cosine=%.7f, want >= 0.99999", g, i, c)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := b.Embed(context.Background(), texts); err != nil {
		t.Fatalf("Embed after the other embedder closed: %v", err)
	}
	if _, err := a.Embed(context.Background(), texts); lore.ErrorCode(err) != lore.EUNAVAILABLE {
		t.Fatalf("Embed on a closed embedder: err=%v, want EUNAVAILABLE", err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// countingSession records how many runs overlap.
type countingSession struct {
	mu        sync.Mutex
	now, peak int
}

func (s *countingSession) run(_, _ []int64, rows, _ int, dst []float32) error {
	s.mu.Lock()
	s.now++
	s.peak = max(s.peak, s.now)
	s.mu.Unlock()
	time.Sleep(2 * time.Millisecond)
	for i := range dst {
		dst[i] = 1
	}
	s.mu.Lock()
	s.now--
	s.mu.Unlock()
	return nil
}

func (s *countingSession) close() error { return nil }

// TestInflightBoundsConcurrentInferences: however many searches embed at
// once, no more than Inflight inferences run together.
func TestInflightBoundsConcurrentInferences(t *testing.T) {
	tok := fixtureTokenizer(t)
	sess := &countingSession{}
	e := &Embedder{tok: tok, session: sess, slots: make(chan struct{}, 2)}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := e.Embed(context.Background(), []string{"where does my sister live"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if sess.peak != 2 {
		t.Errorf("peak concurrent inferences=%d, want 2 (the bound)", sess.peak)
	}
}
