package lore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The index keys of facts and episodes, and the conversation neighbours an
// episode's key reads, live here so that ingestion (which writes the keys)
// and retrieval (which searches them and walks the same neighbours) cannot
// drift apart.

// DefaultContextWindow is how far apart in time two turns may be and still
// be one conversation: the turn before an episode in its key, and the
// neighbours retrieval spreads a hit's score to, are looked for no farther.
const DefaultContextWindow = time.Hour

// NeighbourScan bounds the episodes read around one episode; when a burst
// of more episodes than this shares the window its neighbours are not
// looked for.
const NeighbourScan = 64

// FactKey is the text the index holds for a fact: its sentence, followed by
// the subject, the predicate's words and the object when the sentence does
// not already say them, so a search for any of them finds it.
func FactKey(f *Fact) string {
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
// writing about?" — "Harry Potter and Game of Thrones!". Only its last
// question is kept (or its last sentence), and only when it is the other
// side of the dialogue; it comes last so that an embedder's truncation drops
// it first. The whole end of an assistant's long reply (a draft restating
// what the user said) made the user's "yes pls" after it match what the
// draft was about.
func EpisodeKey(ep, prev *Episode, facts []*Fact) string {
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
	if prev != nil && Replies(prev, ep) {
		if t := lastQuestion(tail(strings.TrimSpace(prev.Content), prevKeyChars)); t != "" {
			b.WriteString("\n")
			b.WriteString(t)
		}
	}
	return b.String()
}

// lastQuestion is what a reply answers of the turn before: its last
// question ("Do you know the brand or dimensions?"), or its last sentence.
func lastQuestion(s string) string {
	var sentences []string
	start := 0
	for i, r := range s {
		if r == '.' || r == '!' || r == '?' || r == '\n' {
			// A quote closed after the stop belongs to the sentence before.
			if t := strings.TrimLeft(strings.TrimSpace(s[start:i+1]), "\"'”’) "); t != "" {
				sentences = append(sentences, t)
			}
			start = i + 1
		}
	}
	if t := strings.TrimLeft(strings.TrimSpace(s[start:]), "\"'”’) "); t != "" {
		sentences = append(sentences, t)
	}
	for i := len(sentences) - 1; i >= 0; i-- {
		if strings.HasSuffix(sentences[i], "?") {
			return sentences[i]
		}
	}
	if len(sentences) == 0 {
		return ""
	}
	return sentences[len(sentences)-1]
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

// EpisodeFinder is what neighbour lookups need of a store.
type EpisodeFinder interface {
	FindEpisodes(ctx context.Context, filter EpisodeFilter) ([]*Episode, error)
}

// EpisodesAround returns up to span episodes just before and just after ep in its
// own scope, nearest first, in the store's order (occurrence time, then
// storage time), looking no further than window either side: farther turns
// belong to another conversation. When more than a few dozen episodes share
// the window, ep's neighbours are not looked for.
func EpisodesAround(ctx context.Context, st EpisodeFinder, ep *Episode, window time.Duration, span int) (before, after []*Episode, err error) {
	if window <= 0 || ep.OccurredAt.IsZero() {
		return nil, nil, nil
	}
	since, until := ep.OccurredAt.Add(-window), ep.OccurredAt.Add(window)
	eps, err := st.FindEpisodes(ctx, EpisodeFilter{Scope: ep.Scope, Since: &since, Until: &until, Limit: NeighbourScan})
	if err != nil {
		return nil, nil, fmt.Errorf("neighbouring turns: %w", err)
	}
	before, after = PickAround(eps, ep, span)
	return before, after, nil
}

// PickAround returns up to span episodes of eps (in the store's order) just
// before and just after ep in its own scope, nearest first; none when ep is
// not in eps.
func PickAround(eps []*Episode, ep *Episode, span int) (before, after []*Episode) {
	i := slices.IndexFunc(eps, func(e *Episode) bool { return e.ID == ep.ID })
	if i < 0 {
		return nil, nil
	}
	for j := i - 1; j >= 0 && i-j <= span && eps[j].Scope == ep.Scope; j-- {
		before = append(before, eps[j])
	}
	for j := i + 1; j < len(eps) && j-i <= span && eps[j].Scope == ep.Scope; j++ {
		after = append(after, eps[j])
	}
	return before, after
}

// Replies reports whether two adjacent turns are two sides of a dialogue:
// same scope, different speaker or role. Two turns of one speaker in a row
// (as when only the user's side is stored) are separate statements, not a
// question and its answer.
func Replies(a, b *Episode) bool {
	return a.Scope == b.Scope && (a.Role != b.Role || !strings.EqualFold(a.Speaker, b.Speaker))
}
