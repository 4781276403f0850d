package crypt_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// wordEmbedder is a deterministic bag-of-words embedder: equal texts get
// equal vectors, texts sharing words are close.
type wordEmbedder struct{}

func (wordEmbedder) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "words", Dim: 128} }

func (wordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 128)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%128]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		for j := range v {
			if n > 0 {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}

// TestRetrievalRanksAsPlain: the same conversations stored plain and
// through encryption at rest (entity names, fact ends and speakers sealed)
// give the same results, scores and order for relational questions: entity
// linking reads names through the layer, the relation stage walks sealed
// entities, the blind index ranks as the plain one.
func TestRetrievalRanksAsPlain(t *testing.T) {
	ctx := context.Background()
	plainStore, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	plainIdx := plainStore.Index()
	t.Cleanup(func() { plainIdx.Close(); plainStore.Close() })
	encStore, encIdx, _ := open(t, t.TempDir(), master(t))

	sc := lore.Scope{TenantID: "acme", UserID: "maya"}
	convo := []ingest.Message{
		{Role: "user", Name: "Maya", Content: "My sister Emma moved to Rome last week."},
		{Role: "assistant", Content: "How exciting! Does she like it there?"},
		{Role: "user", Name: "Maya", Content: "I live in Paris with my partner Ana."},
		{Role: "user", Name: "Maya", Content: "Emma's husband Marco is a pastry chef."},
		{Role: "user", Name: "Maya", Content: "My dog Biscuit went to the vet for his shots."},
		{Role: "user", Name: "Maya", Content: "My brother Tom works at Globex in Berlin."},
		{Role: "user", Name: "Maya", Content: "Priya hosts our book club this month."},
		{Role: "user", Name: "Maya", Content: "I am allergic to peanuts."},
	}
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	pipes := map[string]*retrieve.Pipeline{}
	for name, b := range map[string]struct {
		st  lore.Store
		idx lore.Index
	}{"plain": {plainStore, plainIdx}, "encrypted": {encStore, encIdx}} {
		svc := &ingest.Service{Store: b.st, Index: b.idx, Embedder: wordEmbedder{}, Extractor: rules.New(), Config: ingest.DefaultConfig()}
		for i, m := range convo {
			m.CreatedAt = ptr(at.Add(time.Duration(i) * time.Hour))
			if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{m}}); err != nil {
				t.Fatalf("%s: Add: %v", name, err)
			}
		}
		p := &retrieve.Pipeline{Graph: b.st, Index: b.idx, Embedder: wordEmbedder{}, Config: retrieve.DefaultConfig()}
		if fs, ok := b.st.(lore.FeedbackStore); ok {
			p.Feedback = fs
		}
		pipes[name] = p
	}
	for _, q := range []struct{ query, want string }{
		{"Where does my sister live?", "Rome"},
		{"What does my sister's husband do?", "pastry chef"},
		{"Where does my brother work?", "Globex"},
		{"What is my dog called?", "Biscuit"},
		{"Who hosts the book club?", "Priya"},
		{"What am I allergic to?", "peanuts"},
	} {
		got := map[string][]string{}
		for name, p := range pipes {
			resp, err := p.Search(ctx, retrieve.Request{Scope: sc, Query: q.query, TopK: 10, QueryTime: at.Add(24 * time.Hour)})
			if err != nil {
				t.Fatalf("%s: Search(%q): %v", name, q.query, err)
			}
			got[name] = ranked(resp.Results)
		}
		if strings.Join(got["plain"], "\n") != strings.Join(got["encrypted"], "\n") {
			t.Errorf("%q:\nplain     %q\nencrypted %q", q.query, got["plain"], got["encrypted"])
		}
		if len(got["plain"]) == 0 || !strings.Contains(strings.ToLower(got["plain"][0]), strings.ToLower(q.want)) {
			t.Errorf("%q: top result %q, want one naming %s (the test would prove little)", q.query, got["plain"], q.want)
		}
	}
}

// ranked lists the results that scored as "score memory". Results that
// scored 0 are left out: which of them fill the page is decided by id,
// and ids differ between the two stores.
func ranked(rs []retrieve.Result) []string {
	var out []string
	for _, r := range rs {
		if r.Score > 0 {
			out = append(out, fmt.Sprintf("%.9f %s", r.Score, r.Memory))
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }
