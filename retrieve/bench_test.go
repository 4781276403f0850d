package retrieve_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// BenchmarkSearch measures search latency over 10,000 facts and 2,000
// episodes in one scope, with 1,000 entities, and reports p50/p95 in ms.
//
//	go test ./retrieve -run '^$' -bench Search -benchtime 500x
func BenchmarkSearch(b *testing.B) {
	const (
		nEntities = 1000
		nFacts    = 10000
		nEpisodes = 2000
		dim       = 384
	)
	emb := hashEmbedder{Dim: dim}
	w := newWorld(b, emb)
	sc := lore.Scope{TenantID: "bench", UserID: "u"}
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 3000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%dx", i)
	}
	// Zipf-like word choice so BM25 sees common and rare terms.
	word := func() string { return vocab[int(float64(len(vocab))*r.Float64()*r.Float64())] }
	sentence := func(n int) string {
		ws := make([]string, n)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ")
	}
	// Facts are drawn first so each entity is created with its degree as
	// its mentions, as ingestion would leave it. Entities with low numbers
	// are hubs, as a user's own entity is.
	type edge struct{ s, o int }
	edges := make([]edge, nFacts)
	degree := make([]int, nEntities)
	for i := range edges {
		edges[i] = edge{int(float64(nEntities) * r.Float64() * r.Float64()), r.IntN(nEntities)}
		degree[edges[i].s]++
		degree[edges[i].o]++
	}
	ents := make([]*lore.Entity, nEntities)
	for i := range ents {
		e, err := w.store.MergeEntity(w.ctx, &lore.Entity{Scope: sc, Name: fmt.Sprintf("Person%d", i), Type: "person",
			Mentions: degree[i], FirstSeen: w.base, LastSeen: w.base})
		if err != nil {
			b.Fatal(err)
		}
		ents[i] = e
	}
	var eps []*lore.Episode
	for i := range nEpisodes {
		eps = append(eps, &lore.Episode{Scope: sc, Role: "user", Speaker: "u", Content: sentence(15) + " " + ents[r.IntN(nEntities)].Name,
			OccurredAt: w.base.Add(time.Duration(i) * time.Hour)})
	}
	if err := w.store.AddEpisodes(w.ctx, eps); err != nil {
		b.Fatal(err)
	}
	var docs []lore.IndexDoc
	for _, ep := range eps {
		docs = append(docs, lore.IndexDoc{ID: ep.ID, Kind: lore.KindEpisode, Scope: sc, Text: lore.EpisodeKey(ep, nil, nil), Time: ep.OccurredAt})
	}
	for i := range nFacts {
		s, o := ents[edges[i].s], ents[edges[i].o]
		at := w.base.Add(time.Duration(i) * time.Minute)
		f, _, err := w.store.MergeFact(w.ctx, &lore.Fact{Scope: sc, SubjectID: s.ID, Subject: s.Name, Predicate: fmt.Sprintf("rel%d", i%40),
			ObjectID: o.ID, Object: o.Name, Text: s.Name + " " + sentence(6) + " " + o.Name, Confidence: 0.9, Count: 1,
			FirstSeen: at, LastSeen: at, SourceEpisodeIDs: []string{eps[i%nEpisodes].ID}}, "bench")
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, lore.IndexDoc{ID: f.ID, Kind: lore.KindFact, Scope: sc, Text: lore.FactKey(f), Time: f.LastSeen})
	}
	for start := 0; start < len(docs); start += 500 {
		batch := docs[start:min(start+500, len(docs))]
		texts := make([]string, len(batch))
		for i, d := range batch {
			texts[i] = d.Text
		}
		vecs, _ := emb.Embed(w.ctx, texts)
		for i := range batch {
			batch[i].Vector = vecs[i]
		}
		if err := w.idx.Upsert(w.ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = fmt.Sprintf("What did %s say about %s last week?", ents[r.IntN(nEntities)].Name, sentence(2))
	}

	for _, bc := range []struct {
		name     string
		embedder lore.Embedder
		signals  retrieve.Signals
		personal string // "", "on" or "on+usage": the issue-14 signals (signals_bench_test.go)
	}{
		{"bm25", nil, retrieve.Signals{BM25: true}, ""},
		{"bm25+graph", nil, retrieve.Signals{BM25: true, Graph: true, EntityExpansion: true, Temporal: true}, ""},
		{"bm25+graph+dense", emb, retrieve.Signals{BM25: true, Dense: true, Graph: true, EntityExpansion: true, Temporal: true}, ""},
		{"default", emb, retrieve.DefaultConfig().Signals, ""},
		{"default+signals", emb, retrieve.DefaultConfig().Signals, "on"},
		{"default+signals+usage", emb, retrieve.DefaultConfig().Signals, "on+usage"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p := &retrieve.Pipeline{Graph: w.store, Index: w.idx, Embedder: bc.embedder, Config: retrieve.DefaultConfig()}
			p.Config.Signals = bc.signals
			if bc.personal != "" {
				benchPersonal(b, w, sc, p, queries, bc.personal == "on+usage")
				return
			}
			ctx := context.Background()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				if _, err := p.Search(ctx, retrieve.Request{Scope: sc, Query: queries[i%len(queries)], QueryTime: w.base.AddDate(0, 1, 0)}); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.95), "p95-ms")
		})
	}
}
