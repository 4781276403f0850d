// Command gsecmp compares the Chinese analysis of package terms (character
// bigrams), bigrams with single characters, and github.com/go-ego/gse's
// dictionary segmentation by BM25 recall on fixtures/zh and by speed. It is a
// module of its own so that gse stays out of Lore's go.mod. Run it from
// this directory: go run .

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/go-ego/gse"
	"github.com/lore-memory/lore/index/terms"
)

type set struct {
	Users []struct {
		ID       string
		Sessions []struct {
			Messages []struct{ Role, Content string }
		}
		Questions []struct {
			Query    string
			Expected []string
		}
	}
}

type analyzer struct {
	name string
	fn   func(string) []string
}

func unigramsToo(text string) []string {
	out := terms.Analyze(text)
	for _, r := range text {
		if unicode.Is(unicode.Han, r) {
			out = append(out, string(r))
		}
	}
	return out
}

func clean(toks []string) []string {
	var out []string
	for _, t := range toks {
		t = strings.ToLower(strings.TrimSpace(t))
		keep := false
		for _, r := range t {
			if unicode.IsLetter(r) || unicode.IsNumber(r) {
				keep = true
			}
		}
		if keep {
			out = append(out, t)
		}
	}
	return out
}

func bm25(docs [][]string, q []string) []int {
	n := float64(len(docs))
	df := map[string]int{}
	var total float64
	for _, d := range docs {
		total += float64(len(d))
		seen := map[string]bool{}
		for _, t := range d {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	avg := total / n
	scores := make([]float64, len(docs))
	qs := map[string]bool{}
	for _, t := range q {
		qs[t] = true
	}
	for i, d := range docs {
		tf := map[string]int{}
		for _, t := range d {
			tf[t]++
		}
		for t := range qs {
			if tf[t] == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			f := float64(tf[t])
			scores[i] += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(len(d))/avg))
		}
	}
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	var out []int
	for _, i := range idx {
		if scores[i] > 0 {
			out = append(out, i)
		}
	}
	return out
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-join" {
		joinLines() // for weaviate_tokenizers.py
		return
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	var seg gse.Segmenter
	if err := seg.LoadDict(); err != nil { // embedded zh dictionaries (Simplified + Traditional)
		panic(err)
	}
	load := time.Since(start)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	fmt.Printf("gse v0.80.3 LoadDict: %v, heap +%.0f MB\n", load.Round(time.Millisecond), float64(after.HeapAlloc-before.HeapAlloc)/1e6)

	analyzers := []analyzer{
		{"bigrams (adopted)", terms.Analyze},
		{"bigrams+unigrams", unigramsToo},
		{"gse Cut (dictionary+HMM)", func(s string) []string { return clean(seg.Cut(s, true)) }},
		{"gse CutSearch", func(s string) []string { return clean(seg.CutSearch(s, true)) }},
	}
	var texts []string
	type q struct {
		docs     []string
		query    string
		expected []string
	}
	var qs []q
	for _, f := range []string{"tune", "validate"} {
		data, _ := os.ReadFile("../../../../fixtures/zh/" + f + ".json")
		var s set
		if err := json.Unmarshal(data, &s); err != nil {
			panic(err)
		}
		for _, u := range s.Users {
			var docs []string
			for _, ss := range u.Sessions {
				for _, m := range ss.Messages {
					docs = append(docs, m.Content)
					texts = append(texts, m.Content)
				}
			}
			for _, qq := range u.Questions {
				qs = append(qs, q{docs, qq.Query, qq.Expected})
			}
		}
	}
	fmt.Printf("%d questions over %d messages; BM25 over each user's messages, a question passes at k when one of the top k holds an expected string\n\n", len(qs), len(texts))
	fmt.Println("| analyzer | recall@1 | recall@3 | recall@5 | µs per message |")
	fmt.Println("|---|---:|---:|---:|---:|")
	for _, a := range analyzers {
		hits := [3]int{}
		for _, qq := range qs {
			var docs [][]string
			for _, d := range qq.docs {
				docs = append(docs, a.fn(d))
			}
			rank := bm25(docs, a.fn(qq.query))
			for ki, k := range []int{1, 3, 5} {
				for i := 0; i < k && i < len(rank); i++ {
					hit := false
					for _, e := range qq.expected {
						if strings.Contains(qq.docs[rank[i]], e) {
							hit = true
						}
					}
					if hit {
						hits[ki]++
						break
					}
				}
			}
		}
		const reps = 200
		t0 := time.Now()
		for range reps {
			for _, t := range texts {
				a.fn(t)
			}
		}
		per := float64(time.Since(t0).Microseconds()) / float64(reps*len(texts))
		n := float64(len(qs))
		fmt.Printf("| %s | %.3f | %.3f | %.3f | %.1f |\n", a.name, float64(hits[0])/n, float64(hits[1])/n, float64(hits[2])/n, per)
	}
	fmt.Println()
	for _, s := range []string{"我妹妹小美上個月搬到東京了", "我在Google工作", "我在台积电工作", "龍洞", "我妹妹住在哪裡？"} {
		fmt.Printf("%s\n  bigrams: %q\n  gse:     %q\n", s, terms.Analyze(s), clean(seg.Cut(s, true)))
	}
}

// joinLines reads one JSON string a line from stdin and writes terms.Joined
// of each, as a JSON string a line.
func joinLines() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			panic(err)
		}
		b, _ := json.Marshal(terms.Joined(s))
		fmt.Println(string(b))
	}
}
