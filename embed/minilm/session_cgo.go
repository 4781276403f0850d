//go:build cgo

package minilm

import (
	"fmt"
	"os"
	"sync"

	lore "github.com/lore-memory/lore"
	ort "github.com/yalue/onnxruntime_go"
)

// cgoEnabled tells tests whether this build can run the model.
const cgoEnabled = true

// ortSession is a session on ONNX Runtime, through onnxruntime_go.
type ortSession struct {
	s *ort.DynamicAdvancedSession
}

// newSession starts ONNX Runtime from library, if this process has not yet,
// and loads the model at path.
func newSession(path, library string, threads int) (session, error) {
	if err := acquireRuntime(library); err != nil {
		return nil, err
	}
	s, err := openSession(path, threads)
	if err != nil {
		releaseRuntime()
		return nil, err
	}
	return &ortSession{s: s}, nil
}

func openSession(path string, threads int) (*ort.DynamicAdvancedSession, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("minilm: session options: %w", err)
	}
	defer opts.Destroy()
	// One inference at a time uses every thread; operators run in sequence,
	// which is all this graph can use.
	for _, set := range []func() error{
		func() error { return opts.SetIntraOpNumThreads(threads) },
		func() error { return opts.SetInterOpNumThreads(1) },
		func() error { return opts.SetExecutionMode(ort.ExecutionModeSequential) },
		func() error { return opts.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableAll) },
		// Shapes change with every batch, so planned memory patterns would
		// only be recomputed and kept.
		func() error { return opts.SetMemPattern(false) },
		// Idle worker threads would otherwise spin for a while after each
		// inference, taking the cores that the store's queries of the
		// same search need (measured: half the CPU of a LoCoMo run).
		func() error { return opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") },
	} {
		if err := set(); err != nil {
			return nil, fmt.Errorf("minilm: session options: %w", err)
		}
	}
	s, err := ort.NewDynamicAdvancedSession(path, []string{"input_ids", "attention_mask"}, []string{"sentence_embedding"}, opts)
	if err != nil {
		return nil, fmt.Errorf("minilm: load %s: %w", path, err)
	}
	return s, nil
}

func (o *ortSession) run(ids, mask []int64, rows, seq int, dst []float32) error {
	shape := ort.NewShape(int64(rows), int64(seq))
	idsT, err := ort.NewTensor(shape, ids)
	if err != nil {
		return fmt.Errorf("minilm: input tensor: %w", err)
	}
	defer idsT.Destroy()
	maskT, err := ort.NewTensor(shape, mask)
	if err != nil {
		return fmt.Errorf("minilm: mask tensor: %w", err)
	}
	defer maskT.Destroy()
	// The output tensor wraps dst, so ONNX Runtime writes the vectors in place.
	outT, err := ort.NewTensor(ort.NewShape(int64(rows), Dim), dst)
	if err != nil {
		return fmt.Errorf("minilm: output tensor: %w", err)
	}
	defer outT.Destroy()
	if err := o.s.Run([]ort.Value{idsT, maskT}, []ort.Value{outT}); err != nil {
		return fmt.Errorf("minilm: run: %w", err)
	}
	return nil
}

func (o *ortSession) close() error {
	err := o.s.Destroy()
	releaseRuntime()
	return err
}

// onnxRuntime tracks ONNX Runtime's environment, which onnxruntime_go keeps
// in package-level state: one per process, bound to one shared library. It
// is the one piece of package state here, forced by that library; embedders
// count their use of it so the last Close tears it down.
var onnxRuntime struct {
	sync.Mutex
	library string
	users   int
}

func acquireRuntime(library string) error {
	onnxRuntime.Lock()
	defer onnxRuntime.Unlock()
	if onnxRuntime.users > 0 {
		if onnxRuntime.library != library {
			return lore.Errorf(lore.ECONFLICT, "minilm: ONNX Runtime is already loaded from %s, cannot also load %s", onnxRuntime.library, library)
		}
		onnxRuntime.users++
		return nil
	}
	if _, err := os.Stat(library); err != nil {
		return lore.Errorf(lore.EUNAVAILABLE, "minilm: ONNX Runtime library %s: %v; run `make model` to install it", library, err)
	}
	ort.SetSharedLibraryPath(library)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("minilm: start ONNX Runtime from %s: %w", library, err)
	}
	onnxRuntime.library = library
	onnxRuntime.users = 1
	return nil
}

func releaseRuntime() {
	onnxRuntime.Lock()
	defer onnxRuntime.Unlock()
	onnxRuntime.users--
	if onnxRuntime.users == 0 {
		// Nothing useful can be done if teardown fails at exit.
		_ = ort.DestroyEnvironment()
		onnxRuntime.library = ""
	}
}
