//go:build cgo

package onnxrt

import (
	"fmt"
	"os"
	"sync"

	lore "github.com/lore-memory/lore"
	ort "github.com/yalue/onnxruntime_go"
)

// Enabled tells callers (and tests) whether this build can run a model.
const Enabled = true

// Session is a loaded model. It is safe for concurrent use.
type Session struct {
	s   *ort.DynamicAdvancedSession
	dim int
}

// Open starts ONNX Runtime from o.Library, if this process has not yet, and
// loads o.Model. Loading a second library while one is loaded is refused
// with ECONFLICT: onnxruntime_go holds one per process.
func Open(o Options) (*Session, error) {
	if err := acquire(o.Library); err != nil {
		return nil, err
	}
	s, err := open(o)
	if err != nil {
		release()
		return nil, err
	}
	return &Session{s: s, dim: o.Dim}, nil
}

func open(o Options) (*ort.DynamicAdvancedSession, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("onnxrt: session options: %w", err)
	}
	defer opts.Destroy()
	// One inference at a time uses every thread; operators run in sequence,
	// which is all these graphs can use.
	for _, set := range []func() error{
		func() error { return opts.SetIntraOpNumThreads(o.Threads) },
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
			return nil, fmt.Errorf("onnxrt: session options: %w", err)
		}
	}
	s, err := ort.NewDynamicAdvancedSession(o.Model, o.Inputs, []string{o.Output}, opts)
	if err != nil {
		return nil, fmt.Errorf("onnxrt: load %s: %w", o.Model, err)
	}
	return s, nil
}

// Run runs one batch: ids and mask are rows × seq, dst rows × Dim, written
// in place.
func (s *Session) Run(ids, mask []int64, rows, seq int, dst []float32) error {
	shape := ort.NewShape(int64(rows), int64(seq))
	idsT, err := ort.NewTensor(shape, ids)
	if err != nil {
		return fmt.Errorf("onnxrt: input tensor: %w", err)
	}
	defer idsT.Destroy()
	maskT, err := ort.NewTensor(shape, mask)
	if err != nil {
		return fmt.Errorf("onnxrt: mask tensor: %w", err)
	}
	defer maskT.Destroy()
	outT, err := ort.NewTensor(ort.NewShape(int64(rows), int64(s.dim)), dst)
	if err != nil {
		return fmt.Errorf("onnxrt: output tensor: %w", err)
	}
	defer outT.Destroy()
	if err := s.s.Run([]ort.Value{idsT, maskT}, []ort.Value{outT}); err != nil {
		return fmt.Errorf("onnxrt: run: %w", err)
	}
	return nil
}

// Close releases the model, and ONNX Runtime with the last session.
func (s *Session) Close() error {
	err := s.s.Destroy()
	release()
	return err
}

// runtime tracks ONNX Runtime's environment, which onnxruntime_go keeps in
// package-level state: one per process, bound to one shared library. It is
// the one piece of package state here, forced by that library.
var runtime struct {
	sync.Mutex
	library string
	users   int
}

func acquire(library string) error {
	runtime.Lock()
	defer runtime.Unlock()
	if runtime.users > 0 {
		if runtime.library != library {
			return lore.Errorf(lore.ECONFLICT, "onnxrt: ONNX Runtime is already loaded from %s, cannot also load %s", runtime.library, library)
		}
		runtime.users++
		return nil
	}
	if _, err := os.Stat(library); err != nil {
		return lore.Errorf(lore.EUNAVAILABLE, "onnxrt: ONNX Runtime library %s: %v; run `make model` to install it", library, err)
	}
	ort.SetSharedLibraryPath(library)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("onnxrt: start ONNX Runtime from %s: %w", library, err)
	}
	runtime.library = library
	runtime.users = 1
	return nil
}

func release() {
	runtime.Lock()
	defer runtime.Unlock()
	runtime.users--
	if runtime.users == 0 {
		// Nothing useful can be done if teardown fails at exit.
		_ = ort.DestroyEnvironment()
		runtime.library = ""
	}
}
