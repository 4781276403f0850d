package crypt_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/internal/cputime"
)

// benchEnv is an ingest service over a fresh sqlite store, with or without
// encryption.
func benchEnv(b *testing.B, encrypted bool) (*ingest.Service, lore.Store, lore.Index) {
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "lore.db"))
	if err != nil {
		b.Fatal(err)
	}
	var store lore.Store = st
	var idx lore.Index = st.Index()
	b.Cleanup(func() { idx.Close(); st.Close() })
	if encrypted {
		kr, err := crypt.NewKeyring(st, master(b))
		if err != nil {
			b.Fatal(err)
		}
		x := crypt.NewIndex(st.Index(), kr)
		x.QueryWords = sqlite.QueryWords
		store, idx = crypt.NewStore(st, kr), x
	}
	return &ingest.Service{Store: store, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}, store, idx
}

var benchSentences = []string{
	"I moved to Lisbon last spring with my partner Ana.", "My sister Emma works as an architect in Rome.",
	"I started a new job at Stripe on Monday.", "We adopted a beagle called Pepper.", "I have been vegetarian for five years.",
}

// BenchmarkIngest: one message added and extracted within the call (rules
// extractor, no embedder), plain against encrypted.
func BenchmarkIngest(b *testing.B) {
	for _, enc := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "encrypted"}[enc], func(b *testing.B) {
			svc, _, _ := benchEnv(b, enc)
			sc := lore.Scope{TenantID: "acme", UserID: "alice"}
			ctx := context.Background()
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				msg := fmt.Sprintf("%s (%d)", benchSentences[i%len(benchSentences)], i)
				if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{{Role: "user", Content: msg}}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkSearch: a BM25 search and the hydration of its hits over 2,000
// memories of one user, plain against encrypted (blind index, sealed text),
// for a question and for its content words alone (the embedded index drops
// stopwords from a query; hashed, they are not recognized and are searched).
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct{ name, query string }{
		{"question", "where does my sister work as an architect"},
		{"content-words", "sister work architect"},
	} {
		for _, enc := range []bool{false, true} {
			b.Run(c.name+"/"+map[bool]string{false: "plain", true: "encrypted"}[enc], func(b *testing.B) { benchSearch(b, enc, c.query) })
		}
	}
}

func benchSearch(b *testing.B, enc bool, query string) {
	{
		{
			svc, st, idx := benchEnv(b, enc)
			sc := lore.Scope{TenantID: "acme", UserID: "alice"}
			ctx := context.Background()
			for i := 0; i < 2000; i += 50 {
				msgs := make([]ingest.Message, 50)
				for j := range msgs {
					msgs[j] = ingest.Message{Role: "user", Content: fmt.Sprintf("%s note %d", benchSentences[(i+j)%len(benchSentences)], i+j)}
				}
				if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: false, Messages: msgs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			cpu := cputime.Process()
			defer func() { b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op") }()
			for i := 0; i < b.N; i++ {
				hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: query, Limit: 10})
				if err != nil || len(hits) == 0 {
					b.Fatalf("SearchText: %v, %d hits", err, len(hits))
				}
				ids := make([]string, len(hits))
				for k, h := range hits {
					ids[k] = h.ID
				}
				if _, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: ids}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkEntityLink: what search's entity linking asks of the store over
// 1,000 entities of one user (most mentioned once, as in a real graph):
// the entities a question's n-grams name, and the 40 most mentioned, plain
// against encrypted (names sealed on the way in, opened on the way out;
// for the top 40 the layer reads on past the page while mentions tie, to
// order ties by name).
func BenchmarkEntityLink(b *testing.B) {
	ngrams := []string{"where", "does", "my", "sister", "emma", "live", "where does", "my sister", "sister emma", "emma live"}
	for _, c := range []struct {
		name   string
		filter func(sc lore.Scope) lore.EntityFilter
	}{
		{"names", func(sc lore.Scope) lore.EntityFilter { return lore.EntityFilter{Scope: sc, Names: ngrams, Limit: 16} }},
		{"top40", func(sc lore.Scope) lore.EntityFilter { return lore.EntityFilter{Scope: sc, Limit: 40} }},
	} {
		for _, enc := range []bool{false, true} {
			b.Run(c.name+"/"+map[bool]string{false: "plain", true: "encrypted"}[enc], func(b *testing.B) {
				_, st, _ := benchEnv(b, enc)
				sc := lore.Scope{TenantID: "acme", UserID: "alice"}
				ctx := context.Background()
				for i := range 1000 {
					name := fmt.Sprintf("Person %d", i)
					if i == 7 {
						name = "Emma"
					}
					// One in ten is mentioned more than once.
					if _, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: name, Type: "person", Mentions: 1 + (i%10/9)*(i%7)}); err != nil {
						b.Fatal(err)
					}
				}
				f := c.filter(sc)
				b.ResetTimer()
				cpu := cputime.Process()
				for i := 0; i < b.N; i++ {
					got, err := st.FindEntities(ctx, f)
					if err != nil || len(got) == 0 {
						b.Fatalf("FindEntities: %v, %d", err, len(got))
					}
				}
				// CPU time, less sensitive than wall time to a loaded machine.
				b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
