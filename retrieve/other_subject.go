package retrieve

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// SignalOtherSubject names the factor a candidate's score was multiplied by
// because a query about the user matched it only where it speaks of
// someone else, in Result.ScoreDetails.
const SignalOtherSubject = "other_subject"

// subjectReach is how many words before a matched word are read for whom
// the clause is about.
const subjectReach = 8

// grammaticalPerson is whom a clause speaks of.
type grammaticalPerson int

const (
	personUnknown grammaticalPerson = iota
	personFirst                     // the speaker: "I drive a Silverado"
	personOther                     // someone else: "he drives an F-150"
)

// applyOtherSubject multiplies by factor the score of each candidate that a
// query about the user alone ("What truck do I drive?") matches only where
// it speaks of someone else: a fact whose subject is not the user, a turn
// whose every topic word stands in a clause about someone else ("my
// brother … he drives an f-150"). user is the user's entity.
func applyOtherSubject(c *candidateSet, f fused, topic []string, user *lore.Entity, factor float64) {
	want := map[string]bool{}
	for _, w := range topic {
		want[stem(w)] = true
	}
	for id := range f.Scores {
		other := false
		switch c.kind[id] {
		case lore.KindFact:
			fact := c.facts[id]
			other = fact != nil && fact.SubjectID != "" && fact.SubjectID != user.ID
		case lore.KindEpisode:
			ep := c.episodes[id]
			other = ep != nil && len(want) > 0 && aboutOthers(ep.Content, want)
		}
		if other {
			f.Scores[id] *= factor
			detail(f.Details, id)[SignalOtherSubject] = factor
		}
	}
}

// aboutOthers reports whether text holds a word of want and every such
// word stands in a clause about someone other than the speaker.
func aboutOthers(text string, want map[string]bool) bool {
	found := false
	for sentence := range strings.FieldsFuncSeq(text, func(r rune) bool { return strings.ContainsRune(sentenceEnds, r) }) {
		toks := words(sentence)
		for i, t := range toks {
			if isStopword(t) || !want[stem(t)] {
				continue
			}
			found = true
			if clausePerson(toks, i) != personOther {
				return false
			}
		}
	}
	return found
}

// clausePerson reads back from toks[i] (lower-case words, contractions cut
// to their first part) for whom its clause speaks of: the nearest
// first-person pronoun, third-person pronoun or role word ("my brother
// drives") within subjectReach words.
func clausePerson(toks []string, i int) grammaticalPerson {
	for j := i - 1; j >= 0 && j >= i-subjectReach; j-- {
		switch t := toks[j]; t {
		case "i", "im", "ive", "me", "we", "us", "our", "ours", "mine", "myself":
			return personFirst
		case "my":
			if j+1 < len(toks) && isRoleWord(toks[j+1]) {
				return personOther
			}
			return personFirst
		case "he", "she", "they", "hes", "shes", "his", "her", "their", "them", "him":
			return personOther
		default:
			if isRoleWord(t) {
				return personOther
			}
		}
	}
	return personUnknown
}

// isRoleWord reports whether w names a role in roles.txt ("brother",
// "coworker", "wife").
func isRoleWord(w string) bool {
	_, ok := roleTable[singular(w)]
	return ok
}

// namesSomeone reports whether a query holds a capitalized word after its
// first other than "I" ("Who did I meet first, Mark or Tom?"): a name,
// though no entity of that name is known.
func namesSomeone(query string) bool {
	for i, t := range strings.FieldsFunc(query, func(r rune) bool { return !isWordRune(r) }) {
		if i == 0 || t == "I" || strings.HasPrefix(t, "I'") || strings.HasPrefix(t, "I’") {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(t); unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
