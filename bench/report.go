package bench

import (
	"fmt"
	"io"
	"sort"

	"github.com/lore-memory/lore/retrieve"
)

// column is one figure of the Markdown table.
type column struct {
	head  string
	value func(s Scores) float64
}

var columns = []column{
	{"turn any@5", func(s Scores) float64 { return s.Turn[RecallAny]["5"] }},
	{"turn any@10", func(s Scores) float64 { return s.Turn[RecallAny]["10"] }},
	{"turn all@10", func(s Scores) float64 { return s.Turn[RecallAll]["10"] }},
	{"turn frac@10", func(s Scores) float64 { return s.Turn[Frac]["10"] }},
	{"turn ndcg@10", func(s Scores) float64 { return s.Turn[NDCG]["10"] }},
	{"sess any@5", func(s Scores) float64 { return s.Session[RecallAny]["5"] }},
	{"sess all@5", func(s Scores) float64 { return s.Session[RecallAll]["5"] }},
	{"sess all@10", func(s Scores) float64 { return s.Session[RecallAll]["10"] }},
	{"chars@10", func(s Scores) float64 { return s.Chars["10"] }},
}

func header(w io.Writer, first string, extra ...string) {
	fmt.Fprintf(w, "| %s |", first)
	for _, c := range columns {
		fmt.Fprintf(w, " %s |", c.head)
	}
	for _, e := range extra {
		fmt.Fprintf(w, " %s |", e)
	}
	fmt.Fprint(w, "\n|---|")
	for range len(columns) + len(extra) {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
}

func row(w io.Writer, name string, s Scores, extra ...string) {
	fmt.Fprintf(w, "| %s |", name)
	for _, c := range columns {
		v := c.value(s)
		if c.head == "chars@10" {
			fmt.Fprintf(w, " %.0f |", v)
		} else {
			fmt.Fprintf(w, " %.3f |", v)
		}
	}
	for _, e := range extra {
		fmt.Fprintf(w, " %s |", e)
	}
	fmt.Fprintln(w)
}

// WriteMarkdown writes the ablation table and the per-group table.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "### %s (split %s, seed %s): %d spaces, %d turns, %d questions scored; ingest %.1fs; embedder %s\n\n",
		r.Dataset, r.Split, r.SplitSeed, r.Spaces, r.Turns, r.Overall.Questions, r.IngestSeconds, r.Embedder)
	header(w, "pipeline", "p50 ms", "p95 ms")
	names := make([]string, 0, len(r.Ablations))
	for n := range r.Ablations {
		names = append(names, n)
	}
	// The standard ablations in their own order, each one switch from the
	// row above; others after them by name.
	order := map[string]int{}
	for i, a := range retrieve.Ablations() {
		order[a.Name] = i
	}
	sort.Slice(names, func(i, j int) bool {
		oi, iok := order[names[i]]
		oj, jok := order[names[j]]
		if iok && jok {
			return oi < oj
		}
		if iok != jok {
			return iok
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		a := r.Ablations[n]
		row(w, n, a.Overall, fmt.Sprintf("%.1f", a.LatencyMS.P50), fmt.Sprintf("%.1f", a.LatencyMS.P95))
	}
	row(w, "**default (full)**", r.Overall, fmt.Sprintf("%.1f", r.LatencyMS.P50), fmt.Sprintf("%.1f", r.LatencyMS.P95))
	groups := r.ByCategory
	label := "category"
	if groups == nil {
		groups, label = r.ByType, "question type"
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "\nDefault pipeline by %s:\n\n", label)
	header(w, label, "questions")
	for _, k := range keys {
		row(w, k, groups[k], fmt.Sprint(groups[k].Questions))
	}
	fmt.Fprintf(w, "\nSearch latency (default pipeline): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms\n",
		r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.P99)
	r.Failures.writeMarkdown(w)
}

// writeMarkdown says how many records ingestion refused, with the first
// errors; nothing when none was.
func (f Failures) writeMarkdown(w io.Writer) {
	if f.Records == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d records failed to ingest and were skipped; first errors:\n\n", f.Records)
	for _, e := range f.Errors {
		fmt.Fprintf(w, "- %s\n", e)
	}
}
