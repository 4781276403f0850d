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
	texts := make([]string, len(ref.Sentences))
	want := make([][]float32, len(ref.Sentences))
	for i, s := range ref.Sentences {
		texts[i], want[i] = s.Text, s.Vector
	}
	got, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	checkNearReference(t, texts, got, want, 0.94, 0.98)
}

// TestMiniLMQVectorsIgnoreBatchMates: the int8 MiniLM runs each text alone.
func TestMiniLMQVectorsIgnoreBatchMates(t *testing.T) {
	checkVectorsIgnoreBatchMates(t, mustOpen(t, Config{Model: MiniLMQ(), ModelDir: installedDir(t, MiniLMQ(), "LORE_MINILMQ_MODEL_DIR", "make model")}))
}
