package retrieve

import (
	"slices"
	"sort"
	"strings"

	"github.com/lore-memory/lore"
)

// SignalProfileEvidence names the profile-evidence boost's factor in
// ScoreDetails.
const SignalProfileEvidence = "profile_evidence"

// maxEvidenceEntries bounds the profile entries embedded with a query for
// the evidence boost: the most recently updated ones.
const maxEvidenceEntries = 128

// evidenceEntry is a profile entry the evidence boost may use: its text
// for the embedding and the memories it was learned from.
type evidenceEntry struct {
	text     string
	episodes []string
}

// evidenceEntries returns the entries learned from memories (not from
// queries), newest first, at most maxEvidenceEntries, with the text each
// is embedded as: its key's words and its value ("owns sony a7r iv").
func evidenceEntries(entries []lore.ProfileEntry) []evidenceEntry {
	sorted := slices.Clone(entries)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].UpdatedAt.After(sorted[j].UpdatedAt) })
	var out []evidenceEntry
	for _, e := range sorted {
		var eps []string
		for _, id := range e.Evidence {
			if id != "" && !strings.HasPrefix(id, lore.QueryEvidencePrefix) {
				eps = append(eps, id)
			}
		}
		if len(eps) == 0 {
			continue
		}
		out = append(out, evidenceEntry{text: strings.ReplaceAll(e.Key, "_", " ") + " " + e.Value, episodes: eps})
		if len(out) == maxEvidenceEntries {
			break
		}
	}
	return out
}

// relevantEvidence picks the entries that bear on the query: the top
// closest to it by cosine of their embeddings, each at least minSim, and
// returns the memories they were learned from.
func relevantEvidence(q []float32, entries []evidenceEntry, vecs [][]float32, top int, minSim float64) map[string]bool {
	type scored struct {
		i   int
		sim float64
	}
	var ss []scored
	for i, v := range vecs {
		if s := lore.Cosine(q, v); s >= minSim {
			ss = append(ss, scored{i, s})
		}
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].sim > ss[b].sim })
	out := map[string]bool{}
	for n, s := range ss {
		if n == top {
			break
		}
		for _, id := range entries[s.i].episodes {
			out[id] = true
		}
	}
	return out
}

// applyProfileEvidence multiplies by 1 + EvidenceWeight the fused score of
// each candidate that is the evidence of a profile entry bearing on the
// query (an episode the entry was learned from, or a fact one of whose
// sources it is): the memory where the user revealed what the query
// depends on ("my Sony A7R IV" for "accessories for my photography
// setup"). It does nothing under RerankMin candidates.
func applyProfileEvidence(c *candidateSet, f fused, pers *personalization, cfg ProfileConfig) {
	if pers == nil || len(pers.evidence) == 0 || len(f.Scores) < cfg.RerankMin {
		return
	}
	factor := 1 + cfg.EvidenceWeight
	for id := range f.Scores {
		hit := false
		if fa := c.facts[id]; fa != nil {
			hit = slices.ContainsFunc(fa.SourceEpisodeIDs, func(e string) bool { return pers.evidence[e] })
		} else if c.episodes[id] != nil {
			hit = pers.evidence[id]
		}
		if !hit {
			continue
		}
		f.Scores[id] *= factor
		detail(f.Details, id)[SignalProfileEvidence] = factor
	}
}
