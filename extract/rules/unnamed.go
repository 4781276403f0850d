package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// People are often named by role alone: "my dad lives in Cardiff", "my mum
// is a hairdresser", "my mom comes from Rosario". Their facts belong to the
// person the speaker has by that role: the one named before ("my sister
// Emma"), or else a person named by the role itself ("user's dad"), so that
// "Where does my dad live?" reaches them through the graph.
var myRoleSubj = `(?i:\b(?:my|our)\s+` + roleAdj + `(` + roleAlt + `))`

var (
	myRoleLivesRe = regexp.MustCompile(myRoleSubj + `\s+(?i:lives|lived|has\s+moved|moved|is\s+living|is|'s|’s)\s+(?i:(?:back|still|now|up|down|over|out)\s+)*(?i:in|to)\s+` + placeAlt)
	// "I'm at my dad's in Cardiff every other weekend", "staying at my
	// mum's place in Leeds"
	atMyRoleRe = regexp.MustCompile(`(?i:\bat\s+(?:my|our)\s+` + roleAdj + `(` + roleAlt + `)(?:'s|’s|s)(?:\s+(?:place|house|flat|home))?)\s+(?i:in)\s+` + placeAlt)
	// "my brother just moved a few days ago from Wrocław to Kraków": the
	// old home ends and the new one starts.
	myRoleMovedFromRe = regexp.MustCompile(myRoleSubj + `\s+(?i:(?:just|finally|recently|has|have)\s+)*(?i:moved|relocated)\s+(?:[^,.;!?]{1,30}?\s+)?(?i:from)\s+` + placeAlt + `\s+(?i:to)\s+` + placeAlt)
	myRoleFromRe      = regexp.MustCompile(myRoleSubj + `\s+(?i:is|'s|’s|comes|came)\s+(?i:originally\s+)?(?i:from)\s+` + placeAlt)
	myRoleJobRe       = regexp.MustCompile(myRoleSubj + `\s+(?i:is|'s|’s|works\s+as)\s+(?i:(?:now|also|still)\s+)?(?i:(a|an)\s+)?([^,;!?()]+?)(?:\s+(?i:and|but|so|because)\s|[,;!?()]|$)`)
	// "Priya is from Chennai", "Kofi comes from Kumasi originally"
	thirdComesFromRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:is|'s|’s|comes|came)\s+(?i:originally\s+)?from\s+` + placeAlt)
)

// roleHolder returns the person the possessor has by role, and the facts
// that introduce them when they are new; "" for pets and unknown roles.
func (c *collector) roleHolder(possessor, possessorType, role string, ref time.Time) (string, []lore.ExtractedFact) {
	role = canonicalRole(role)
	if petRoles[role] {
		return "", nil
	}
	pred := rolePredicate(role)
	if held, ok := c.prior(possessor, pred, ""); ok {
		return held, nil
	}
	name := c.entity(possessive(possessor)+" "+role, "person")
	return name, []lore.ExtractedFact{{
		Subject: possessor, SubjectType: possessorType, Predicate: pred,
		Object: name, ObjectIsEntity: true, ObjectType: "person",
		Text: factText("%s has a %s", possessor, role), ValidAt: timePtr(ref), Confidence: 0.7,
	}}
}

// unnamedFacts finds the homes, origins and jobs of people the speaker
// names by role alone.
func (c *collector) unnamedFacts(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	about := func(role string) string {
		who, intro := c.roleHolder(subject, subjectType, role, ref)
		out = append(out, intro...)
		return who
	}
	place := func(m []string, pred, verb string) {
		if isTemporalWord(lore.NormalizeName(m[2])) {
			return // "my dad is in March"
		}
		who := about(m[1])
		if who == "" {
			return
		}
		p := c.entity(m[2], "place")
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: pred, Object: p, ObjectIsEntity: true, ObjectType: "place",
			Text: factText("%s %s %s", who, verb, p), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	for _, m := range myRoleLivesRe.FindAllStringSubmatch(sentence, -1) {
		place(m, "lives_in", "lives in")
	}
	for _, m := range myRoleMovedFromRe.FindAllStringSubmatch(sentence, -1) {
		if isTemporalWord(lore.NormalizeName(m[2])) || isTemporalWord(lore.NormalizeName(m[3])) {
			continue
		}
		if who := about(m[1]); who != "" {
			out = append(out, ended(who, "person", "lives_in", "lives in", c.entity(m[2], "place"), true, "place", ref))
			place([]string{m[0], m[1], m[3]}, "lives_in", "lives in")
		}
	}
	for _, m := range atMyRoleRe.FindAllStringSubmatch(sentence, -1) {
		place(m, "lives_in", "lives in")
	}
	for _, m := range myRoleFromRe.FindAllStringSubmatch(sentence, -1) {
		place(m, "comes_from", "comes from")
	}
	for _, m := range myRoleJobRe.FindAllStringSubmatch(sentence, -1) {
		title, _ := splitJob(m[3])
		if m[2] == "" && !bareTitle(title) || jobTitle(title) == "" {
			continue
		}
		who := about(m[1])
		if who == "" {
			continue
		}
		if rest, ok := cutRetired(title); ok {
			// "my boss is a former nurse"
			f := ended(who, "person", "works_as", "works as", strings.ToLower(rest), false, "", ref)
			f.Text = factText("%s is %s", who, withArticle(title))
			out = append(out, f)
			continue
		}
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: "works_as", Object: strings.ToLower(title),
			Text: factText("%s works as %s", who, withArticle(title)), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	for _, m := range thirdComesFromRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || c.typeOf(m[1]) == "place" || isTemporalWord(lore.NormalizeName(m[2])) || unasserted(sentence, m[0]) {
			continue
		}
		who, p := c.entity(dropOpener(m[1]), "person"), c.entity(m[2], "place")
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: "comes_from", Object: p, ObjectIsEntity: true, ObjectType: "place",
			Text: factText("%s comes from %s", who, p), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	return out
}
