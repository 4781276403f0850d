package e5

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lore-memory/lore/internal/cputime"
	"github.com/lore-memory/lore/internal/embedbench"
)

// benchTexts are short memories and questions in English, Traditional and
// Simplified Chinese, the size of a chat message or a fact.
func benchTexts(n int) []string {
	base := []string{
		"Caroline moved to Paris last spring to study painting.",
		"我住在台北，在台積電當工程師。",
		"我妹妹小美上个月搬到东京了。",
		"Where does my sister live now?",
		"我喜歡攀岩，常去龍洞，程度大約5.11a。",
		"Melanie signed up for a pottery class in May 2023.",
		"我对花生过敏，所以不吃宫保鸡丁。",
		"What did Melanie paint last year?",
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s (%d)", base[i%len(base)], i)
	}
	return out
}

// BenchmarkEmbedQuery measures one search query's embedding, as a search
// pays it on a cache miss: p50 and p95 wall time, and CPU per query (which
// stays comparable on a busy machine).
func BenchmarkEmbedQuery(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			embedbench.QueryLatency(b, mustNew(b, threads).EmbedQuery, benchTexts(64))
		})
	}
}

// BenchmarkEmbedBatch measures passages embedded 64 per call, as ingest
// does: passages per wall second and per CPU second.
func BenchmarkEmbedBatch(b *testing.B) {
	e := mustNew(b, 0)
	texts := benchTexts(64)
	ctx := context.Background()
	if _, err := e.Embed(ctx, texts); err != nil {
		b.Fatal(err)
	}
	cpu0, wall0 := cputime.Process(), time.Now()
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(b.N * len(texts))
	b.ReportMetric(n/time.Since(wall0).Seconds(), "passages/s")
	b.ReportMetric(n/(cputime.Process()-cpu0).Seconds(), "passages/cpu-s")
}
