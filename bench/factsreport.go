package bench

import (
	"fmt"
	"io"
	"slices"
	"sort"
)

// WriteMarkdown writes the pass rates of the default pipeline and of the
// graph ablation side by side, overall and by kind, then latency and any
// ingestion failures.
func (r *FactsReport) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "### facts: %d users, %d messages, %d questions; top %d; ingest %.1fs; embedder %s\n\n",
		r.Users, r.Messages, r.Questions, r.TopK, r.IngestSeconds, r.Embedder)
	fmt.Fprintln(w, "| kind | questions | pass@1 | pass@3 | no graph pass@1 | no graph pass@3 | graph gain @1 |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	line := func(name string, d, n PassScores) {
		fmt.Fprintf(w, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %+.3f |\n", name, d.Questions, d.Pass1, d.Pass3, n.Pass1, n.Pass3, d.Pass1-n.Pass1)
	}
	for _, k := range factKindOrder(r.Default.ByKind) {
		line(k, r.Default.ByKind[k], r.NoGraph.ByKind[k])
	}
	line("**overall**", r.Default.Overall, r.NoGraph.Overall)
	fmt.Fprintf(w, "\nSearch latency: default p50 %.1f ms, p95 %.1f ms; no graph p50 %.1f ms, p95 %.1f ms\n",
		r.Default.LatencyMS.P50, r.Default.LatencyMS.P95, r.NoGraph.LatencyMS.P50, r.NoGraph.LatencyMS.P95)
	r.Failures.writeMarkdown(w)
}

// factKindOrder lists the kinds present: FactKinds' order first, then any
// others by name.
func factKindOrder(byKind map[string]PassScores) []string {
	var out, other []string
	for _, k := range FactKinds {
		if _, ok := byKind[k]; ok {
			out = append(out, k)
		}
	}
	for k := range byKind {
		if !slices.Contains(FactKinds, k) {
			other = append(other, k)
		}
	}
	sort.Strings(other)
	return append(out, other...)
}
