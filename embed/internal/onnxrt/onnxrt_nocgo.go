//go:build !cgo

package onnxrt

import lore "github.com/lore-memory/lore"

// Enabled tells callers (and tests) whether this build can run a model.
const Enabled = false

// Session is a loaded model; without cgo there is none.
type Session struct{}

// Open reports that this build cannot run a model: ONNX Runtime is a C
// library, reached through cgo.
func Open(o Options) (*Session, error) {
	return nil, lore.Errorf(lore.EUNAVAILABLE,
		"this lore binary was built without cgo, which the built-in embedders need; build with CGO_ENABLED=1 or use an OpenAI-compatible embedder")
}

// Run is never reached: Open returns no Session.
func (s *Session) Run(ids, mask []int64, rows, seq int, dst []float32) error {
	return lore.Errorf(lore.EUNAVAILABLE, "onnxrt: built without cgo")
}

// Close does nothing.
func (s *Session) Close() error { return nil }
