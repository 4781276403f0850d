package bert

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	lore "github.com/lore-memory/lore"
)

// TestE5V2ReferenceMatchesModel keeps the fixture and the model description
// in step: same length limit, same prefixes.
func TestE5V2ReferenceMatchesModel(t *testing.T) {
	ref := loadModelReference(t, "e5v2-reference.json")
	m := E5SmallV2()
	if ref.MaxSeqLength != m.MaxSeqLength || ref.QueryPrefix != m.QueryPrefix || ref.PassagePrefix != m.PassagePrefix {
		t.Fatalf("fixture has %d, %q, %q; E5SmallV2() %d, %q, %q", ref.MaxSeqLength, ref.QueryPrefix, ref.PassagePrefix,
			m.MaxSeqLength, m.QueryPrefix, m.PassagePrefix)
	}
}

// TestE5V2TokenizerMatchesReference: e5-small-v2's tokenizer.json is BERT's
// uncased WordPiece (the same file as bge's), so the Go tokenizer must give
// Hugging Face tokenizers' ids, prefixes included.
func TestE5V2TokenizerMatchesReference(t *testing.T) {
	checkTokenizerMatches(t, loadModelReference(t, "e5v2-reference.json"))
}

// TestE5V2EmbedMatchesReference is the correctness test of the installed
// int8 model (with the mean pooling pool.py adds) against the full-precision
// one, through Embed and EmbedQuery, which add the prefixes themselves.
func TestE5V2EmbedMatchesReference(t *testing.T) {
	e := mustOpen(t, Config{Model: E5SmallV2(), ModelDir: e5v2ModelDir(t)})
	ref := loadModelReference(t, "e5v2-reference.json")
	m := E5SmallV2()
	ctx := context.Background()
	var texts []string
	var got, want [][]float32
	for _, s := range ref.Sentences {
		var vecs [][]float32
		var err error
		if q, ok := strings.CutPrefix(s.Text, m.QueryPrefix); ok {
			vecs, err = e.EmbedQuery(ctx, []string{q})
		} else {
			vecs, err = e.Embed(ctx, []string{strings.TrimPrefix(s.Text, m.PassagePrefix)})
		}
		if err != nil {
			t.Fatal(err)
		}
		texts, got, want = append(texts, s.Text), append(got, vecs[0]), append(want, s.Vector)
	}
	checkNearReference(t, texts, got, want, 0.94, 0.98)
}

// TestE5V2InfoAndEntityBar: Info records both prefixes, so a store refuses
// vectors made without them, and ingest takes e5's entity bar.
func TestE5V2InfoAndEntityBar(t *testing.T) {
	e := mustOpen(t, Config{Model: E5SmallV2(), ModelDir: e5v2ModelDir(t)})
	info := e.Info()
	if info.Name != "e5-small-v2-q" || info.QueryPrefix != "query: " || info.PassagePrefix != "passage: " || info.Dim != Dim {
		t.Fatalf("Info()=%+v", info)
	}
	if got := lore.EntitySimilarity(e); got != 0.95 {
		t.Fatalf("EntitySimilarity=%v, want 0.95", got)
	}
}

// TestE5V2MissingModelSaysHowToInstall: the error names e5v2's fetch script.
func TestE5V2MissingModelSaysHowToInstall(t *testing.T) {
	_, err := New(Config{Model: E5SmallV2(), ModelDir: filepath.Join(t.TempDir(), "absent")})
	if lore.ErrorCode(err) != lore.EUNAVAILABLE || !strings.Contains(lore.ErrorMessage(err), "make model-e5v2") {
		t.Fatalf("New=%v, want EUNAVAILABLE naming `make model-e5v2`", err)
	}
}
