package retrieve

import (
	"strings"

	"github.com/lore-memory/lore"
)

// FactKey is the text the index holds for a fact: its sentence, followed by
// the subject, the predicate's words and the object when the sentence does
// not already say them, so a search for any of them finds it.
func FactKey(f *lore.Fact) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(f.Text))
	lower := strings.ToLower(f.Text)
	for _, part := range []string{f.Subject, strings.ReplaceAll(f.Predicate, "_", " "), f.Object} {
		part = strings.TrimSpace(part)
		if part == "" || strings.Contains(lower, strings.ToLower(part)) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(part)
	}
	return b.String()
}

// EpisodeKey is the text the index holds for an episode: the speaker's name,
// the content (image captions are already in it), and the sentences of the
// facts extracted from it, which restate the turn in resolved words ("I" →
// the user's name, "yesterday" → a date) for BM25 and the embedder. facts is
// nil before extraction.
func EpisodeKey(ep *lore.Episode, facts []*lore.Fact) string {
	var b strings.Builder
	if ep.Speaker != "" {
		b.WriteString(strings.TrimSpace(ep.Speaker))
		b.WriteString(": ")
	}
	b.WriteString(strings.TrimSpace(ep.Content))
	seen := map[string]bool{}
	for _, f := range facts {
		t := strings.TrimSpace(f.Text)
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		b.WriteString("\n")
		b.WriteString(t)
	}
	return b.String()
}
