package bert

import (
	"context"
	"testing"
)

// TestMiniLMQEmbedMatchesReference: the int8 MiniLM against the
// full-precision vectors of fixtures/embeddings/reference.json.
func TestMiniLMQEmbedMatchesReference(t *testing.T) {
	e := mustOpen(t, Config{Model: MiniLMQ(), ModelDir: installedDir(t, MiniLMQ(), "LORE_MINILMQ_MODEL_DIR", "make model")})
	ref := loadReference(t)
	var sum, low float64 = 0, 1
	for i, s := range ref.Sentences {
		vecs, err := e.Embed(context.Background(), []string{s.Text})
		if err != nil {
			t.Fatal(err)
		}
		got := cosine(vecs[0], s.Vector)
		sum += got
		low = min(low, got)
		if got < 0.94 {
			t.Errorf("sentence %d %q: cosine %.4f to the full-precision vector, want >= 0.94", i, s.Text, got)
		}
	}
	t.Logf("mean cosine %.4f, lowest %.4f", sum/float64(len(ref.Sentences)), low)
}

// TestMiniLMQVectorsIgnoreBatchMates: the int8 MiniLM runs each text alone.
func TestMiniLMQVectorsIgnoreBatchMates(t *testing.T) {
	checkVectorsIgnoreBatchMates(t, mustOpen(t, Config{Model: MiniLMQ(), ModelDir: installedDir(t, MiniLMQ(), "LORE_MINILMQ_MODEL_DIR", "make model")}))
}
