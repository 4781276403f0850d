package ingest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// dropScorer drops every fact whose text holds "drop", after embedding the
// facts and the message keys it is given.
type dropScorer struct{ keys map[string]string }

func (d *dropScorer) Filter(ctx context.Context, ext *lore.Extraction, keys map[string]string, _ lore.EmbedderInfo, embed func(context.Context, []string) ([][]float32, error)) ([]lore.ExtractedFact, []string, error) {
	d.keys = keys
	var texts []string
	for _, f := range ext.Facts {
		texts = append(texts, f.Text, keys[f.EpisodeIDs[0]])
	}
	if _, err := embed(ctx, texts); err != nil {
		return nil, nil, err
	}
	var kept []lore.ExtractedFact
	var dropped []string
	for _, f := range ext.Facts {
		if strings.Contains(f.Text, "drop") {
			dropped = append(dropped, f.Text)
			continue
		}
		kept = append(kept, f)
	}
	return kept, dropped, nil
}

func TestFactScorerDropsBeforeStorage(t *testing.T) {
	ctx := context.Background()
	ext := stubExtractor{fn: func(_ context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
		id := req.Episodes[0].ID
		return &lore.Extraction{Extractor: "rules/4", Facts: []lore.ExtractedFact{
			{Subject: "Alice", Predicate: "statement", Object: "Alice ran a marathon", Text: "Alice ran a marathon", EpisodeIDs: []string{id}, Resolution: lore.Resolution{Kind: "new"}},
			{Subject: "Alice", Predicate: "statement", Object: "Alice will drop by", Text: "Alice will drop by", EpisodeIDs: []string{id}, Resolution: lore.Resolution{Kind: "new"}},
		}}, nil
	}}
	s, st, _ := newTestService(t, ext)
	emb := &countingEmbedder{hashEmbedder: hashEmbedder{name: "hash", dim: 16}}
	s.Embedder = emb
	sc := &dropScorer{}
	s.FactScorer = sc
	res := addSync(t, s, "I ran a marathon and I will drop by", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range facts {
		got = append(got, f.Text)
	}
	if !slices.Equal(got, []string{"Alice ran a marathon"}) {
		t.Fatalf("stored %q, want only the kept fact", got)
	}
	// The scorer got the episode's index key, the text the episode was
	// indexed under when it was added: the cache answers for it.
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: alice().WithDefaults()})
	if err != nil || len(eps) != 1 {
		t.Fatalf("episodes %v, %v", eps, err)
	}
	key := lore.EpisodeKey(eps[0], nil, nil)
	if sc.keys[res.EpisodeIDs[0]] != key {
		t.Fatalf("scorer key %q, want %q", sc.keys[res.EpisodeIDs[0]], key)
	}
	n := 0
	for _, x := range emb.texts {
		if x == key {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the episode key was embedded %d times, want once", n)
	}
	// Without an embedder the scorer is not asked and every fact is kept.
	s2, st2, _ := newTestService(t, ext)
	s2.FactScorer = &dropScorer{}
	addSync(t, s2, "I ran a marathon and I will drop by", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	facts2, _ := st2.FindFacts(ctx, lore.FactFilter{Scope: alice().WithDefaults(), IncludeInvalidated: true})
	if len(facts2) != 2 {
		t.Fatalf("without an embedder %d facts stored, want 2", len(facts2))
	}
}
