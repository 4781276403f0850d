// Package minilm is Lore's built-in sentence embedder: the
// sentence-transformers model all-MiniLM-L6-v2 (384 dimensions) run inside
// the lore process by ONNX Runtime, with no network and no external service.
//
// The model files are not in the repository. `make model` (that is,
// scripts/model/fetch.sh DATA_DIR) installs them under
// DefaultModelDir(DATA_DIR): model.onnx, converted from the published
// safetensors weights by scripts/model/convert.py with the encoder, mean
// pooling and L2 normalization in one graph; vocab.txt; libonnxruntime.so from
// the npm package onnxruntime-node; and manifest.json with their sha256
// sums, which New verifies.
//
// Tokenization is a Go port of BERT's uncased WordPiece tokenizer (see
// Tokenizer), tested against the ids the reference tokenizer produces.
//
// Why ONNX Runtime through cgo and not pure Go: the performance targets
// (300 sentences/s on two cores, 5 ms per query) need the vectorized
// kernels of a real inference runtime; see embed/README.md for the figures.
// A binary built with CGO_ENABLED=0 still compiles; New then returns
// EUNAVAILABLE and lore runs with BM25 and graph retrieval, or with the
// OpenAI-compatible embedder.
package minilm

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	lore "github.com/lore-memory/lore"
	"github.com/lore-memory/lore/embed/internal/onnxrt"
)

// Model constants of all-MiniLM-L6-v2.
const (
	// Name is the model's name as Info reports it.
	Name = "all-MiniLM-L6-v2"
	// Dim is the length of every vector.
	Dim = 384
	// MaxSeqLength is the number of tokens, [CLS] and [SEP] included, that
	// a text is truncated to, as sentence-transformers configures the model.
	MaxSeqLength = 256
)

// File names inside the model directory.
const (
	modelFile   = "model.onnx"
	vocabFile   = "vocab.txt"
	libraryFile = "libonnxruntime.so"
)

// DefaultModelDir is where `make model` installs the model for a data
// directory.
func DefaultModelDir(dataDir string) string {
	return filepath.Join(dataDir, "models", Name)
}

// Config configures an Embedder.
type Config struct {
	// ModelDir holds model.onnx, vocab.txt and manifest.json, as
	// scripts/model/fetch.sh writes them.
	ModelDir string
	// LibraryPath is the ONNX Runtime shared library; empty means
	// ModelDir/libonnxruntime.so.
	LibraryPath string
	// Threads is the number of threads one inference uses; 0 means the
	// number of CPUs. The worker threads sleep between inferences rather
	// than spin, so the store's queries of the same search get the cores
	// (see embed/README.md).
	Threads int
	// Inflight bounds the inferences that run at once; 0 means as many as
	// the CPUs hold at Threads each (at least one). Without a bound, 16
	// concurrent searches start 16 inferences of Threads threads each on
	// a 2-core machine, and every one of them is slow.
	Inflight int
}

// Embedder embeds texts with all-MiniLM-L6-v2. It is safe for concurrent
// use; Close releases the model.
type Embedder struct {
	tok     *Tokenizer
	session session
	info    lore.EmbedderInfo

	// mu keeps Close from releasing the session under a running Embed.
	mu     sync.RWMutex
	closed bool
	// slots holds a token per inference allowed to run (Config.Inflight).
	slots chan struct{}
}

var _ lore.Embedder = (*Embedder)(nil)

// session runs the model. The ONNX Runtime one needs cgo
// (session_cgo.go); without cgo newSession reports EUNAVAILABLE
// (session_nocgo.go), so a static lore binary still builds and runs with
// the other embedders.
type session interface {
	// run embeds a batch: ids and mask are rows × seq, dst rows × Dim.
	run(ids, mask []int64, rows, seq int, dst []float32) error
	close() error
}

// New loads the model from cfg.ModelDir after verifying every file against
// the manifest. It returns EUNAVAILABLE, with a message that says to run
// `make model`, when the files are missing, incomplete or corrupt.
func New(cfg Config) (*Embedder, error) {
	if cfg.ModelDir == "" {
		return nil, lore.Errorf(lore.EINVALID, "minilm: model directory is not set")
	}
	if cfg.Threads < 0 || cfg.Inflight < 0 {
		return nil, lore.Errorf(lore.EINVALID, "minilm: threads is %d and inflight %d, want 0 (the default) or more", cfg.Threads, cfg.Inflight)
	}
	threads := cmp.Or(cfg.Threads, runtime.NumCPU())
	inflight := cmp.Or(cfg.Inflight, max(runtime.NumCPU()/threads, 1))
	libPath := cfg.LibraryPath
	checkLib := libPath == ""
	if checkLib {
		libPath = filepath.Join(cfg.ModelDir, libraryFile)
	}

	files := []string{modelFile, vocabFile}
	if checkLib {
		files = append(files, libraryFile)
	}
	sums, err := onnxrt.VerifyModelDir(cfg.ModelDir, Name, Dim, files, func(format string, args ...any) error {
		return unavailable(cfg.ModelDir, format, args...)
	})
	if err != nil {
		return nil, err
	}

	vf, err := os.Open(filepath.Join(cfg.ModelDir, vocabFile))
	if err != nil {
		return nil, fmt.Errorf("minilm: open vocab: %w", err)
	}
	tok, err := NewTokenizer(vf, MaxSeqLength)
	vf.Close()
	if err != nil {
		return nil, err
	}

	sess, err := newSession(filepath.Join(cfg.ModelDir, modelFile), libPath, threads)
	if err != nil {
		return nil, err
	}
	return &Embedder{
		tok:     tok,
		session: sess,
		info:    lore.EmbedderInfo{Name: Name, Dim: Dim, Checksum: "sha256:" + sums[modelFile]},
		slots:   make(chan struct{}, inflight),
	}, nil
}

// Info names the model and the checksum of its ONNX file.
func (e *Embedder) Info() lore.EmbedderInfo { return e.info }

// Tokenizer returns the embedder's tokenizer.
func (e *Embedder) Tokenizer() *Tokenizer { return e.tok }

// Embed returns one unit-length vector of Dim floats per text, in order.
// Texts longer than MaxSeqLength tokens are truncated, as
// sentence-transformers does.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "minilm: the embedder is closed")
	}
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	ids := make([][]int32, len(texts))
	order := make([]int, len(texts))
	for i, t := range texts {
		ids[i] = e.tok.Encode(t)
		order[i] = i
	}
	// Longest first, so each batch pads to a length close to all of its rows.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(ids[b]), len(ids[a])) })
	flat := make([]float32, len(texts)*Dim)
	for start := 0; start < len(order); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seq := len(ids[order[start]])
		rows := onnxrt.BatchRows(seq, len(order)-start)
		batch := order[start : start+rows]
		vecs := flat[start*Dim : (start+rows)*Dim]
		if err := e.run(ctx, ids, batch, seq, vecs); err != nil {
			return nil, err
		}
		for r, i := range batch {
			out[i] = vecs[r*Dim : (r+1)*Dim : (r+1)*Dim]
		}
		start += rows
	}
	return out, nil
}

// run embeds the texts ids[batch[0]], ids[batch[1]], ... padded to seq
// tokens into dst, row by row, once an inference slot is free.
func (e *Embedder) run(ctx context.Context, ids [][]int32, batch []int, seq int, dst []float32) error {
	if e.slots != nil {
		select {
		case e.slots <- struct{}{}:
			defer func() { <-e.slots }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	inputIDs := make([]int64, len(batch)*seq)
	mask := make([]int64, len(batch)*seq)
	for r, i := range batch {
		for j, id := range ids[i] {
			inputIDs[r*seq+j] = int64(id)
			mask[r*seq+j] = 1
		}
	}
	return e.session.run(inputIDs, mask, len(batch), seq, dst)
}

// Close waits for running calls to Embed and releases the model. Later
// calls to Embed return EUNAVAILABLE; later calls to Close do nothing.
func (e *Embedder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	return e.session.close()
}

// unavailable is the error for a model directory that cannot be used; it
// says how to repair it.
func unavailable(dir, format string, args ...any) error {
	return lore.Errorf(lore.EUNAVAILABLE, "embedding model %s in %s: %s; run `make model` (scripts/model/fetch.sh DATA_DIR) to install it",
		Name, dir, fmt.Sprintf(format, args...))
}
