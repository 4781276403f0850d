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
// the content (image captions are already in it), the sentences of the
// facts extracted from it, which restate the turn in resolved words ("I" →
// the user's name, "yesterday" → a date), and the end of the turn it
// answers. facts is nil before extraction; prev is the turn before ep in
// its conversation, or nil.
//
// The turn before matters because in dialogue the question's words are in
// one turn and the answer in the next: "any favourite books you love
// writing about?" — "Harry Potter and Game of Thrones!". Only its end is
// kept (the question is usually last), and only when it is the other side
// of the dialogue; it comes last so that an embedder's truncation drops it
// first.
func EpisodeKey(ep, prev *lore.Episode, facts []*lore.Fact) string {
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
	if prev != nil && replies(prev, ep) {
		if t := tail(strings.TrimSpace(prev.Content), prevKeyChars); t != "" {
			b.WriteString("\n")
			b.WriteString(t)
		}
	}
	return b.String()
}

// prevKeyChars bounds the text of the previous turn kept in a key.
const prevKeyChars = 300

// tail returns the last n bytes or fewer of s, starting at a word.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - n
	if s[cut-1] == ' ' || s[cut-1] == '\n' || s[cut-1] == '\t' {
		return s[cut:] // the cut falls at the start of a word
	}
	s = s[cut:]
	if i := strings.IndexAny(s, " \n\t"); i >= 0 {
		return strings.TrimSpace(s[i:])
	}
	return ""
}
