package bert

import "github.com/lore-memory/lore/embed/internal/onnxrt"

// cgoEnabled tells tests whether this build can run the model.
const cgoEnabled = onnxrt.Enabled

// newSession starts ONNX Runtime from library, if this process has not yet,
// and loads the model at path (embed/internal/onnxrt; without cgo it
// reports EUNAVAILABLE, so a static lore binary still builds and runs with
// the other embedders).
func newSession(path, library string, threads int) (session, error) {
	s, err := onnxrt.Open(onnxrt.Options{Model: path, Library: library, Threads: threads,
		Inputs: []string{"input_ids", "attention_mask"}, Output: "sentence_embedding", Dim: Dim})
	if err != nil {
		return nil, err
	}
	return ortSession{s}, nil
}

// ortSession adapts onnxrt.Session to session.
type ortSession struct{ s *onnxrt.Session }

func (o ortSession) run(ids, mask []int64, rows, seq int, dst []float32) error {
	return o.s.Run(ids, mask, rows, seq, dst)
}

func (o ortSession) close() error { return o.s.Close() }
