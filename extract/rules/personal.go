package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// The speaker's age, birthday, allergies said as a noun, and languages:
// "I just turned 40", "I'm 29.", "My birthday is March 3rd", "I have a
// peanut allergy", "I speak French and Arabic".
var (
	turnedAgeRe   = regexp.MustCompile(`(?i)\b(?:i\s+(?:just\s+|recently\s+)?turned|i\s+am|i'm|i’m)\s+(\d{1,3})(?:\s+(?:years\s+old|yo|y/o))?(?:\s*[,.;!?)]|\s*$|\s+(?:and|but|so|now|today|this|last|next|in)\b)`)
	birthdayRe    = regexp.MustCompile(`(?i)\bmy\s+birthday\s+is\s+(?:on\s+)?((?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?\p{L}+|\p{L}+\s+\d{1,2}(?:st|nd|rd|th)?))\b`)
	nounAllergyRe = regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:have|have\s+got|got)\s+(?:a|an)\s+(?:severe\s+|mild\s+|bad\s+|serious\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+allergy\b`)
	speaksRe      = regexp.MustCompile(`(?i)\bi\s+(?:also\s+|can\s+|only\s+)?speak\s+((?-i:\p{Lu}[\p{L}-]+)(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)(?-i:\p{Lu}[\p{L}-]+))*)`)
	// "Leo turned 5 last week": a named person's age.
	thirdTurnedRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:just\s+|recently\s+)?turned\s+(\d{1,3})\b`)
)

// personalFacts reads the speaker's age, birthday, noun allergies and
// languages in one clause.
func (c *collector) personalFacts(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	fact := func(pred, obj, text string) {
		out = append(out, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: pred, Object: obj,
			Text: text, ValidAt: timePtr(ref), Confidence: 0.8,
		})
	}
	if m := turnedAgeRe.FindStringSubmatch(clause); m != nil {
		fact("age", m[1], factText("%s is %s years old", subject, m[1]))
	}
	if m := birthdayRe.FindStringSubmatch(clause); m != nil {
		fact("birthday", m[1], factText("%s's birthday is %s", subject, m[1]))
	}
	if m := nounAllergyRe.FindStringSubmatch(clause); m != nil {
		what := strings.ToLower(m[1])
		fact("allergic_to", what, factText("%s is allergic to %s", subject, what))
	}
	if m := speaksRe.FindStringSubmatch(clause); m != nil {
		for _, lang := range listNameRe.FindAllString(m[1], -1) {
			fact("speaks", lang, factText("%s speaks %s", subject, lang))
		}
	}
	return out
}

// thirdAges finds the age a named person or pet turned: "my son Leo turned
// 5", "Biscuit turned 3".
func (c *collector) thirdAges(sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	for _, m := range thirdTurnedRe.FindAllStringSubmatch(sentence, -1) {
		typ := c.typeOf(m[1])
		if isPronoun(m[1]) || isStopName(m[1]) || typ != "person" && typ != "pet" || unasserted(sentence, m[0]) {
			continue
		}
		who := c.entity(dropOpener(m[1]), typ)
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: typ, Predicate: "age", Object: m[2],
			Text: factText("%s is %s years old", who, m[2]), ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	return out
}
