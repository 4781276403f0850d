package rules

import (
	"strings"
	"unicode"
)

// informativeness scores a statement (a fact with no recognised relation)
// by general features of what it carries: a date or a number, a name other
// than the speakers', its length in words, an event the speaker reports,
// against a feeling or opinion as its main verb and vague objects ("it",
// "them", "something").
func informativeness(text, sentence string, v voice, dated bool) int {
	words := lowerWords(text)
	score := 0
	if dated || strings.IndexFunc(text, unicode.IsDigit) >= 0 {
		score += 2
	}
	if hasOtherName(text, v) {
		score++
	}
	switch n := len(words); {
	case n >= 14:
		score += 2
	case n >= 10:
		score++
	case n < 8:
		score--
	}
	if reports(sentence) {
		score++
	}
	vague := 0
	for _, w := range words {
		if vagueWords[w] {
			vague++
		}
		if feelingWords[w] {
			score--
			break
		}
	}
	if vague >= 2 || vague == 1 && len(words) < 10 {
		score--
	}
	// Said to or about the listener, or about something other than the
	// speaker ("It's so important to…").
	if addressed(sentence) || impersonal(sentence) {
		score--
	}
	return score
}

// minInformativeness is the least informativeness a statement keeps,
// chosen on the LoCoMo tune half (conv-30/42/43) as the highest threshold
// that keeps coverage above 0.60 there: 0 gives coverage 0.655 / precision
// 0.555, 1 gives 0.618 / 0.577, 2 gives 0.540 / 0.611 (no statement filter:
// 0.682 / 0.519).
const minInformativeness = 1

// hasOtherName reports a capitalized word past the first that is not the
// speaker's or listener's name.
func hasOtherName(text string, v voice) bool {
	locs := wordRe.FindAllStringIndex(text, -1)
	for i, l := range locs {
		w := text[l[0]:l[1]]
		if i == 0 || !startsUpper(w) || w == "I" || strings.HasPrefix(w, v.name) || v.other != "" && strings.HasPrefix(w, v.other) {
			continue
		}
		if isStopName(w) || isTemporalWord(strings.ToLower(w)) {
			continue
		}
		return true
	}
	return false
}

var (
	vagueWords   = listSet(strings.Fields(`it them this that these those something stuff things thing so`))
	feelingWords = listSet(strings.Fields(`feel feels felt feeling glad happy excited stoked thrilled proud grateful thankful hope hopes hoping wish wishes appreciate appreciates means meant inspiring inspired amazing awesome`))
)
