package retrieve

import (
	"slices"
	"sort"
	"strings"

	"github.com/lore-memory/lore"
)

// SignalSuperseded names the factor a candidate's score was multiplied by
// because a later user turn among the best candidates changed the value it
// states, in Result.ScoreDetails.
const SignalSuperseded = "superseded"

// SignalSupersedes names the factor a user turn's score was multiplied by
// to take the place of the earlier candidates whose value it changes.
const SignalSupersedes = "supersedes"

// applySupersession puts each later user turn among the top best
// candidates in the place of the better-ranked earlier candidates whose
// value it changes, and those just below it. People name the old value
// when they change it ("I canceled Planet Fitness and joined the YMCA",
// "yes i left netball", "I changed my Spanish class to Italian"): a word
// of the earlier candidate's answer (answerWords) that a change or ending
// phrase of the later turn acts on (changedWords) says the earlier value
// no longer holds. It returns, for each candidate superseded, the turn
// that superseded it (keepBelow holds the order after later stages).
func applySupersession(c *candidateSet, f fused, topic []string, top int, at asOf, isTime func(string) bool) map[string]string {
	by := map[string]string{}
	ids := make([]string, 0, len(f.Scores))
	for id := range f.Scores {
		ids = append(ids, id)
	}
	ids = bestFirst(ids, f.Scores, top)
	// Role words name whom a sentence is about, not its value: "my son"
	// does not make every sentence about the son an answer.
	query, selectors := map[string]bool{}, map[string]bool{}
	for _, w := range topic {
		query[stem(w)] = true
		if !isRoleWord(w) {
			selectors[stem(w)] = true
		}
	}
	// A candidate's answer words, read once however many later turns
	// are checked against it.
	answers := map[string]map[string]bool{}
	for i, b := range ids {
		ep := c.episodes[b]
		if c.kind[b] != lore.KindEpisode || ep == nil || ep.Role != "user" || ep.OccurredAt.After(at.T) || f.Scores[b] <= 0 {
			continue
		}
		changed := changedWords(ep.Content, query)
		if len(changed) == 0 {
			continue
		}
		var replaced []string
		best := f.Scores[b]
		for _, x := range ids[:i] {
			if f.Scores[x] <= f.Scores[b] {
				continue
			}
			t := when(c, x)
			if t.IsZero() || !t.Before(ep.OccurredAt) {
				continue
			}
			if _, ok := answers[x]; !ok {
				answers[x] = answerWords(c, x, query, selectors)
			}
			if !changesAnswer(changed, answers[x], isTime) {
				continue
			}
			replaced = append(replaced, x)
			best = max(best, f.Scores[x])
		}
		if len(replaced) == 0 {
			continue
		}
		detail(f.Details, b)[SignalSupersedes] = best / f.Scores[b]
		f.Scores[b] = best
		for _, x := range replaced {
			factor := best * supersededBelow / f.Scores[x]
			f.Scores[x] *= factor
			detail(f.Details, x)[SignalSuperseded] = factor
			by[x] = b
		}
	}
	return by
}

// keepBelow puts each superseded result back just below the turn that
// superseded it where a later stage (turn evidence) lifted it above, and
// restores score order.
func keepBelow(results []Result, by map[string]string, f fused) []Result {
	if len(by) == 0 {
		return results
	}
	moved := false
	for i := range results {
		r := &results[i]
		b, ok := by[r.ID]
		if !ok {
			continue
		}
		if limit := f.Scores[b] * supersededBelow; r.Score > limit {
			detail(f.Details, r.ID)[SignalSuperseded] *= limit / r.Score
			r.Score = limit
			f.Scores[r.ID] = limit
			moved = true
		}
	}
	if moved {
		sort.SliceStable(results, func(i, j int) bool { return results[i].Score > results[j].Score })
	}
	return results
}

// supersededBelow is where a superseded candidate lands: just below the
// turn that changed it, which takes its place, so the rest of the ranking
// is left as it was.
const supersededBelow = 0.99

// changedWords are the words a change or ending phrase, not negated, acts
// on, by stem: up to changeReach content words after it in its clause
// ("canceled Planet Fitness"; not "Javier retired", where the change is
// his, not the speaker's), less the query's own words.
func changedWords(text string, query map[string]bool) map[string]string {
	out := map[string]string{}
	take := func(w string) {
		if len(w) >= 3 && !isStopword(w) && !query[stem(w)] && changeAt([]string{w}, 0) == 0 {
			out[stem(w)] = w
		}
	}
	for _, s := range clausesOf(text) {
		ws := words(s)
		for i := range ws {
			n := changeAt(ws, i)
			if n == 0 {
				continue
			}
			for _, w := range ws[i+n : min(len(ws), i+n+changeReach)] {
				take(w)
			}
		}
	}
	return out
}

// changesAnswer reports whether a changed word is one of an answer's
// words and no word of time ("a big change since January" changes no
// January). Time is asked last: parsing a word is the costly test.
func changesAnswer(changed map[string]string, answer map[string]bool, isTime func(string) bool) bool {
	for st, w := range changed {
		if answer[st] && !isTime(w) {
			return true
		}
	}
	return false
}

// changeReach is how many words after a change phrase it acts on within
// its clause.
const changeReach = 4

// changeAt returns the length of the change or ending phrase that starts
// at ws[i], 0 when none does or it is negated ("I'm not giving up the
// bass").
func changeAt(ws []string, i int) int {
	if i > 0 && (ws[i-1] == "not" || ws[i-1] == "never") {
		return 0
	}
	for _, table := range []map[string][][]string{changeCues, endingCues} {
		for _, p := range table[ws[i]] {
			if i+len(p) <= len(ws) && slices.Equal(ws[i:i+len(p)], p) {
				return len(p)
			}
		}
	}
	return 0
}

// answerWords are the stems of what a candidate answers with: a fact's
// object, or the clauses of a turn (split at sentence ends, lines and
// commas, but not at "Gym: Planet Fitness") that hold one of the selector
// words (the whole turn when it is one or two sentences), less the query's
// words.
func answerWords(c *candidateSet, id string, query, selectors map[string]bool) map[string]bool {
	switch c.kind[id] {
	case lore.KindFact:
		if fact := c.facts[id]; fact != nil && fact.Object != "" {
			return stemSet(fact.Object)
		}
	case lore.KindEpisode:
		ep := c.episodes[id]
		if ep == nil {
			return nil
		}
		out := map[string]bool{}
		for _, s := range splitAt(ep.Content, sentenceEnds+",") {
			set := stemSet(s)
			if !sharesWord(set, selectors) {
				continue
			}
			for w := range set {
				out[w] = true
			}
		}
		if len(out) == 0 && len(splitAt(ep.Content, sentenceEnds)) <= 2 {
			out = stemSet(ep.Content)
		}
		for w := range query {
			delete(out, w)
		}
		return out
	}
	return nil
}

// clausesOf splits a text at sentence ends, line breaks, commas, dashes,
// colons and brackets: the reach of a change phrase.
func clausesOf(text string) []string { return splitAt(text, sentenceEnds+",:()—–") }

// splitAt splits a text at any of the runes in seps.
func splitAt(text, seps string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(seps, r) })
}

func sharesWord(a, b map[string]bool) bool {
	for w := range a {
		if b[w] {
			return true
		}
	}
	return false
}
