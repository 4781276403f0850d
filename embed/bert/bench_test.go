package bert

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore/internal/cputime"
	"github.com/lore-memory/lore/internal/embedbench"
)

// benchSentences returns n varied sentences of about twelve word pieces
// each, the size of a chat message or a fact.
func benchSentences(n int) []string {
	who := []string{"Alice", "my brother", "Caroline", "the new manager", "Grandma", "our neighbour", "Tom", "my best friend"}
	did := []string{"moved to", "is training for a marathon in", "bought a small flat in", "started a new job in",
		"spent the summer in", "is learning to cook food from", "adopted a puppy while living in", "flew back from"}
	where := []string{"Lisbon", "Tokyo", "Berlin", "the countryside", "Nairobi", "Montreal", "a village near Lyon", "Seoul"}
	when := []string{"last week", "in May 2023", "two years ago", "yesterday", "after the wedding", "this spring"}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s %s %s %s.", who[i%len(who)], did[(i/3)%len(did)], where[(i/7)%len(where)], when[(i/11)%len(when)])
	}
	return out
}

func meanTokens(tok *Tokenizer, texts []string) float64 {
	var n int
	for _, t := range texts {
		n += len(tok.Encode(t))
	}
	return float64(n) / float64(len(texts))
}

// BenchmarkEmbedBatch measures MiniLM's batched throughput: 256 short
// sentences per Embed call. sentences/s is wall-clock throughput;
// sentences/cpu-s divides by the CPU time used, which stays comparable on a
// busy machine.
func BenchmarkEmbedBatch(b *testing.B) { benchEmbedBatch(b, minilmAt) }

// BenchmarkBGEEmbedBatch is BenchmarkEmbedBatch for bge-small-en-v1.5, which
// runs each text alone (Model.OneTextPerRun).
func BenchmarkBGEEmbedBatch(b *testing.B) { benchEmbedBatch(b, bgeAt) }

// BenchmarkEmbedQuery measures the latency of embedding one query with
// MiniLM, as a search does (embedbench.QueryLatency).
func BenchmarkEmbedQuery(b *testing.B) { benchEmbedQuery(b, minilmAt) }

// BenchmarkBGEEmbedQuery is BenchmarkEmbedQuery for bge-small-en-v1.5, its
// query instruction included.
func BenchmarkBGEEmbedQuery(b *testing.B) { benchEmbedQuery(b, bgeAt) }

func minilmAt(b *testing.B, threads int) *Embedder { return mustNew(b, threads) }

func bgeAt(b *testing.B, threads int) *Embedder {
	return mustOpen(b, Config{Model: BGESmall(), ModelDir: bgeModelDir(b), Threads: threads})
}

func benchEmbedBatch(b *testing.B, open func(*testing.B, int) *Embedder) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			e := open(b, threads)
			texts := benchSentences(256)
			ctx := context.Background()
			if _, err := e.Embed(ctx, texts); err != nil { // warm ONNX Runtime's arena
				b.Fatal(err)
			}
			cpu0, wall0 := cputime.Process(), time.Now()
			for b.Loop() {
				if _, err := e.Embed(ctx, texts); err != nil {
					b.Fatal(err)
				}
			}
			n := float64(b.N * len(texts))
			b.ReportMetric(n/time.Since(wall0).Seconds(), "sentences/s")
			b.ReportMetric(n/(cputime.Process()-cpu0).Seconds(), "sentences/cpu-s")
			b.ReportMetric(meanTokens(e.Tokenizer(), texts), "tokens/sentence")
		})
	}
}

func benchEmbedQuery(b *testing.B, open func(*testing.B, int) *Embedder) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			embedbench.QueryLatency(b, open(b, threads).EmbedQuery, benchSentences(64))
		})
	}
}

// BenchmarkModelMemory reports the resident memory the model adds to the
// process: RSS after loading it and embedding a full-length batch, minus
// RSS before. Run it alone (-bench ModelMemory) for a clean figure.
func BenchmarkModelMemory(b *testing.B) {
	runtime.GC()
	before := rss(b)
	e := mustNew(b, 2)
	ctx := context.Background()
	long := strings.Repeat("memory for agents ", 200) // past MiniLM().MaxSeqLength
	texts := append(benchSentences(256), slices.Repeat([]string{long}, 16)...)
	for b.Loop() {
		if _, err := e.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	b.ReportMetric(float64(rss(b)-before)/(1<<20), "MB-rss-delta")
}

// rss is the process's resident set size in bytes, from /proc (Linux).
func rss(tb testing.TB) int64 {
	tb.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				tb.Fatalf("parse VmRSS %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	tb.Fatal("no VmRSS in /proc/self/status")
	return 0
}
