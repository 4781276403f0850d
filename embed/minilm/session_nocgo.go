//go:build !cgo

package minilm

import lore "github.com/lore-memory/lore"

// cgoEnabled tells tests whether this build can run the model.
const cgoEnabled = false

// newSession reports that this build cannot run the model: ONNX Runtime is
// a C library, reached through cgo.
func newSession(path, library string, threads int) (session, error) {
	return nil, lore.Errorf(lore.EUNAVAILABLE,
		"minilm: this lore binary was built without cgo, which the built-in embedder needs; build with CGO_ENABLED=1 or use an OpenAI-compatible embedder")
}
