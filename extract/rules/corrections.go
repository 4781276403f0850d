package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

var (
	// "Per is in Tromsø, not Trondheim", "she lives in Leeds — not York":
	// a value corrected in place. Group 1 is the right value, group 2 the
	// wrong one.
	notInsteadRe = regexp.MustCompile(`(\p{Lu}[\p{L}-]*(?:\s+\p{Lu}[\p{L}-]*)*)\s*(?:,|—|–|-)\s*(?i:not)\s+(?:(?i:in|at|with|from|to)\s+)?(\p{Lu}[\p{L}-]*(?:\s+\p{Lu}[\p{L}-]*)*)`)
	// "my coach is not Ms. Fujimoto", "Dana isn't my manager": a relation
	// denied.
	myRoleIsNotRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+(` + roleAlt + `)\s+(?:is\s+not|isn't|isn’t|was\s+never|is\s+actually\s+not))\s+` + nameRe)
	nameIsNotMyRe = regexp.MustCompile(nameRe + `\s+(?i:(?:is\s+not|isn't|isn’t|was\s+never)\s+(?:my|our)\s+(` + roleAlt + `))\b`)
)

// corrections finds values a sentence corrects. "X, not Y", where Y is the
// object of a current fact (of this extraction or the request's), ends that
// fact and states X in its place, with the same subject and predicate: the
// wrong value was said before, and the sentence replaces it. A correction
// whose wrong value is no fact Lore holds says nothing here (the assistant
// may have said it). "my coach is not Ms. Fujimoto" ends the relation.
func (c *collector) corrections(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	for _, m := range notInsteadRe.FindAllStringSubmatch(sentence, -1) {
		right, wrong := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		if isStopName(right) || isPronoun(right) || lore.NormalizeName(right) == lore.NormalizeName(wrong) {
			continue
		}
		old, ok := c.current(wrong)
		if !ok {
			continue
		}
		typ := ""
		if old.ObjectIsEntity {
			typ = old.ObjectType
			right = c.entity(right, typ)
		}
		verb := strings.ReplaceAll(old.Predicate, "_", " ")
		end := ended(old.Subject, old.SubjectType, old.Predicate, verb, old.Object, old.ObjectIsEntity, typ, ref)
		out = append(out, end, lore.ExtractedFact{
			Subject: old.Subject, SubjectType: old.SubjectType, Predicate: old.Predicate,
			Object: right, ObjectIsEntity: old.ObjectIsEntity, ObjectType: typ,
			Text: factText("%s %s %s", old.Subject, verb, right), ValidAt: timePtr(ref), Confidence: 0.8,
		})
	}
	deny := func(role, name string) {
		if isStopName(name) || isPronoun(name) {
			return
		}
		role = canonicalRole(role)
		pred := rolePredicate(role)
		if old, ok := c.prior(subject, pred, name); ok {
			f := ended(subject, subjectType, pred, "has "+role, old, true, "person", ref)
			f.Text = factText("%s is not %s %s", old, possessive(subject), role)
			out = append(out, f)
		}
	}
	for _, m := range myRoleIsNotRe.FindAllStringSubmatch(sentence, -1) {
		deny(m[1], m[2])
	}
	for _, m := range nameIsNotMyRe.FindAllStringSubmatch(sentence, -1) {
		deny(m[2], m[1])
	}
	return out
}

// current returns the latest current fact, of this extraction or the
// request's, whose object is obj and whose predicate states a value (not a
// relation to a person or a bare statement).
func (c *collector) current(obj string) (lore.ExtractedFact, bool) {
	key := lore.NormalizeName(obj)
	valued := func(pred string) bool { return pred != "statement" && !strings.HasPrefix(pred, "has_") }
	for i := len(c.ex.Facts) - 1; i >= 0; i-- {
		f := c.ex.Facts[i]
		if f.InvalidAt == nil && valued(f.Predicate) && lore.NormalizeName(f.Object) == key {
			return f, true
		}
	}
	for i := len(c.candFacts) - 1; i >= 0; i-- {
		f := c.candFacts[i]
		if f.InvalidAt == nil && valued(f.Predicate) && lore.NormalizeName(f.Object) == key {
			return lore.ExtractedFact{
				Subject: f.Subject, SubjectType: c.typeOf(f.Subject), Predicate: f.Predicate, Object: f.Object,
				ObjectIsEntity: f.ObjectID != "", ObjectType: c.typeOf(f.Object),
			}, true
		}
	}
	return lore.ExtractedFact{}, false
}
