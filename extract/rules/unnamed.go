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

// theirRoleSubj is a role of a named person: "Luca's sister", whose facts
// are those of the person Luca has by that role.
var theirRoleSubj = nameRe + `['’]s\s+(?i:` + roleAdj + `(` + roleAlt + `))`

// The tails after a role subject; each is read after "my <role>" and after
// "<Name>'s <role>".
const (
	roleLivesTail     = `\s+(?i:(?:just|finally|recently|also|now)\s+)*(?i:lives|lived|has\s+moved|moved|is\s+living|is|'s|’s)\s+(?i:(?:back|still|now|up|down|over|out)\s+)*(?i:with\s+[^,.;!?]{1,25}?\s+)?(?i:in|to)\s+` + placeAlt
	roleMovedFromTail = `\s+(?i:(?:just|finally|recently|has|have)\s+)*(?i:moved|relocated)\s+(?:[^,.;!?]{1,30}?\s+)?(?i:from)\s+` + placeAlt + `\s+(?i:to)\s+` + placeAlt
	roleFromTail      = `\s+(?i:is|'s|’s|comes|came)\s+(?i:originally\s+)?(?i:from)\s+` + placeAlt
	// "my daughter started uni at Leeds", "my son goes to Roundhay School"
	roleSchoolTail   = `\s+(?i:(?:just|finally|now|also)\s+)*(?i:started\s+(?:uni|university|college|school|sixth\s+form)\s+at|is\s+at\s+(?:uni|university|college)\s+in|goes\s+to|is\s+(?:now\s+)?(?:studying|doing\s+\p{L}+)\s+at)\s+` + orgAlt
	roleEmployerTail = `\s+(?i:(?:just|finally|recently|now|also)\s+)*(?i:works|worked|is\s+working|got\s+a\s+(?:new\s+)?job|started|started\s+working|got\s+hired|was\s+hired)\s+(?i:at|for|with)\s+` + orgAlt
	roleJobTail      = `\s+(?i:is|'s|’s|works\s+as)\s+(?i:(?:now|also|still)\s+)?(?i:(a|an)\s+)?([^,;!?()]+?)(?:\s+(?i:and|but|so|because)\s|[,;!?()]|$)`
)

// roleSubjectPatterns are the role-subject patterns, by whose role.
type roleSubjectPatterns struct {
	lives, movedFrom, from, job, employer, school *regexp.Regexp
	// named: group 1 is the possessor's name, and the role and the rest
	// come one group later than after "my".
	named bool
	// chain: group 1 is a role of the speaker's whose holder is the
	// possessor ("my wife's brother"), the rest as for named.
	chain bool
}

func newRoleSubjectPatterns(subject string, named bool) roleSubjectPatterns {
	return roleSubjectPatterns{
		lives:     regexp.MustCompile(subject + roleLivesTail),
		movedFrom: regexp.MustCompile(subject + roleMovedFromTail),
		from:      regexp.MustCompile(subject + roleFromTail),
		job:       regexp.MustCompile(subject + roleJobTail),
		employer:  regexp.MustCompile(subject + roleEmployerTail),
		school:    regexp.MustCompile(subject + roleSchoolTail),
		named:     named,
	}
}

// myChainSubj is a role of a role of the speaker's: "my wife's brother",
// "my husband's mum".
var myChainSubj = `(?i:\b(?:my|our)\s+` + roleAdj + `(` + roleAlt + `)['’]s\s+` + roleAdj + `(` + roleAlt + `))`

var (
	myRolePatterns    = newRoleSubjectPatterns(myRoleSubj, false)
	theirRolePatterns = newRoleSubjectPatterns(theirRoleSubj, true)
	chainRolePatterns = func() roleSubjectPatterns {
		p := newRoleSubjectPatterns(myChainSubj, false)
		p.chain = true
		return p
	}()
	// "I'm at my dad's in Cardiff every other weekend", "staying at my
	// mum's place in Leeds"
	atMyRoleRe = regexp.MustCompile(`(?i:\bat\s+(?:my|our)\s+` + roleAdj + `(` + roleAlt + `)(?:'s|’s|s)(?:\s+(?:place|house|flat|home))?)\s+(?i:in)\s+` + placeAlt)
	// "my parents live in Nagpur", "my in-laws moved to Ghent", "my
	// parents' anniversary is coming, they are in Nagpur": the home of a
	// group the speaker names by a plural role.
	myPluralLivesRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+` + roleAdj + pluralRoleAlt + `)['’]?(?:\s+(?i:(?:both|just|finally|recently|also|now|still)\s+)*(?i:live|lived|have\s+moved|moved|are\s+living|are|['’]re)\s+(?i:(?:back|still|now|up|down|over|out)\s+)*(?i:in|to)\s+|[^.;!?]{0,60}?,\s+(?i:they)\s+(?i:live|are|are\s+living|['’]re|moved)\s+(?i:in|to)\s+)` + placeAlt)
	// "it will be held in Kumasi, where my mother lives": a home said in a
	// relative clause after the place.
	whereRoleLivesRe = regexp.MustCompile(`(?i:\bin\s+)` + placeAlt + `,?\s+(?i:where\s+)` + myRoleSubj + `\s+(?i:(?:still\s+|now\s+)?(?:lives|has\s+lived|is\s+living|has\s+been\s+living))\b`)
	// "a reunion at Aunty Mere's place in Ōpōtiki", "Kofi's house in
	// Kumasi": a named person's home.
	namedPlaceRe = regexp.MustCompile(`(?:\b(?i:aunty|auntie|aunt|uncle|nana|grandma|grandpa|granny|tia|tio|tía|tío)\s+)?` + nameRe + `['’]s\s+(?i:(?:new\s+|old\s+)?(?:place|house|flat|home|farm|apartment))\s+(?i:in|at)\s+` + placeAlt)
	// "he's in year 9 at Roundhay School": a named pupil's school.
	pupilAtRe = regexp.MustCompile(nameRe + `(?:\s+is|'s|’s)\s+(?i:(?:now\s+)?in\s+(?:year|grade|form|class|standard|std)\s+\w+\s+at)\s+` + placeAlt)
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
// names by role alone: their own ("my dad") or a named person's ("Luca's
// sister").
func (c *collector) unnamedFacts(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	out = append(out, c.roleSubjectFacts(myRolePatterns, subject, subjectType, sentence, ref)...)
	out = append(out, c.roleSubjectFacts(theirRolePatterns, subject, subjectType, sentence, ref)...)
	out = append(out, c.roleSubjectFacts(chainRolePatterns, subject, subjectType, sentence, ref)...)
	for _, m := range atMyRoleRe.FindAllStringSubmatch(sentence, -1) {
		if who, intro := c.roleHolder(subject, subjectType, m[1], ref); who != "" && !isTemporalWord(lore.NormalizeName(m[2])) {
			out = append(append(out, intro...), c.placeFact(who, "lives_in", "lives in", m[2], ref))
		}
	}
	for _, m := range namedPlaceRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || c.typeOf(m[1]) != "" && c.typeOf(m[1]) != "person" || isTemporalWord(lore.NormalizeName(m[2])) || unasserted(sentence, m[0]) {
			continue
		}
		out = append(out, c.placeFact(c.entity(dropOpener(m[1]), "person"), "lives_in", "lives in", m[2], ref))
	}
	for _, m := range pupilAtRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || c.typeOf(m[1]) != "" && c.typeOf(m[1]) != "person" {
			continue
		}
		who, school := c.entity(dropOpener(m[1]), "person"), c.entity(m[2], "organization")
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: "studies_at", Object: school, ObjectIsEntity: true, ObjectType: "organization",
			Text: factText("%s goes to %s", who, school), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	for _, m := range whereRoleLivesRe.FindAllStringSubmatch(sentence, -1) {
		if who, intro := c.roleHolder(subject, subjectType, m[2], ref); who != "" && !isTemporalWord(lore.NormalizeName(m[1])) {
			out = append(append(out, intro...), c.placeFact(who, "lives_in", "lives in", m[1], ref))
		}
	}
	for _, m := range myPluralLivesRe.FindAllStringSubmatch(sentence, -1) {
		if isTemporalWord(lore.NormalizeName(m[2])) || unasserted(sentence, m[0]) {
			continue
		}
		out = append(out, c.groupFacts(subject, subjectType, strings.ToLower(m[1]), ref)...)
		who := c.entity(possessive(subject)+" "+strings.ToLower(m[1]), "person")
		f := c.placeFact(who, "lives_in", "live in", m[2], ref)
		out = append(out, f)
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

// roleSubjectFacts reads one family of role-subject patterns: the possessor
// is the speaker ("my dad lives in Cardiff") or, for named patterns, the
// person named ("Luca's sister just moved to Turin").
func (c *collector) roleSubjectFacts(p roleSubjectPatterns, subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	// each calls f with the match's groups from the role on (role, then the
	// pattern's own) and the possessor.
	about := func(owner, ownerType, role string) string {
		who, intro := c.roleHolder(owner, ownerType, role, ref)
		out = append(out, intro...)
		return who
	}
	each := func(re *regexp.Regexp, f func(g []string, owner, ownerType string)) {
		for _, m := range re.FindAllStringSubmatch(sentence, -1) {
			owner, ownerType, g := subject, subjectType, m[1:]
			switch {
			case p.named:
				if isPronoun(m[1]) || isStopName(m[1]) || c.typeOf(m[1]) != "person" || unasserted(sentence, m[0]) {
					continue
				}
				owner, ownerType, g = c.entity(dropOpener(m[1]), "person"), "person", m[2:]
			case p.chain:
				holder := about(subject, subjectType, m[1])
				if holder == "" || unasserted(sentence, m[0]) {
					continue
				}
				owner, ownerType, g = holder, "person", m[2:]
			}
			f(g, owner, ownerType)
		}
	}
	place := func(g []string, owner, ownerType, pred, verb string) {
		if isTemporalWord(lore.NormalizeName(g[1])) {
			return // "my dad is in March"
		}
		if who := about(owner, ownerType, g[0]); who != "" {
			out = append(out, c.placeFact(who, pred, verb, g[1], ref))
		}
	}
	each(p.lives, func(g []string, owner, ownerType string) {
		place(g, owner, ownerType, "lives_in", "lives in")
	})
	each(p.movedFrom, func(g []string, owner, ownerType string) {
		if isTemporalWord(lore.NormalizeName(g[1])) || isTemporalWord(lore.NormalizeName(g[2])) {
			return
		}
		if who := about(owner, ownerType, g[0]); who != "" {
			out = append(out, ended(who, "person", "lives_in", "lives in", c.entity(g[1], "place"), true, "place", ref))
			out = append(out, c.placeFact(who, "lives_in", "lives in", g[2], ref))
		}
	})
	each(p.from, func(g []string, owner, ownerType string) {
		place(g, owner, ownerType, "comes_from", "comes from")
	})
	// "my son goes to Roundhay School", "my brother got a job at Amazon"
	organization := func(pred, verb string) func(g []string, owner, ownerType string) {
		return func(g []string, owner, ownerType string) {
			org := orgName(g[1])
			if org == "" || !startsUpper(org) || isTemporalWord(lore.NormalizeName(org)) {
				return
			}
			if who := about(owner, ownerType, g[0]); who != "" {
				org = c.entity(c.fullName(org), "organization")
				out = append(out, lore.ExtractedFact{
					Subject: who, SubjectType: "person", Predicate: pred, Object: org, ObjectIsEntity: true, ObjectType: "organization",
					Text: factText("%s %s %s", who, verb, org), ValidAt: timePtr(ref), Confidence: 0.7,
				})
			}
		}
	}
	each(p.school, organization("studies_at", "studies at"))
	each(p.employer, organization("works_at", "works at"))
	each(p.job, func(g []string, owner, ownerType string) {
		title, _ := splitJob(g[2])
		if g[1] == "" && !bareTitle(title) || jobTitle(title) == "" {
			return
		}
		who := about(owner, ownerType, g[0])
		if who == "" {
			return
		}
		if rest, ok := cutRetired(title); ok {
			// "my boss is a former nurse"
			f := ended(who, "person", "works_as", "works as", strings.ToLower(rest), false, "", ref)
			f.Text = factText("%s is %s", who, withArticle(title))
			out = append(out, f)
			return
		}
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: "works_as", Object: strings.ToLower(title),
			Text: factText("%s works as %s", who, withArticle(title)), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	})
	return out
}

// groupFacts introduces the group the speaker names by a plural role ("user
// has parents"), once, so that "my parents" reaches it through the graph.
func (c *collector) groupFacts(subject, subjectType, plural string, ref time.Time) []lore.ExtractedFact {
	pred := rolePredicate(canonicalRole(pluralRoles[plural]))
	name := possessive(subject) + " " + plural
	if _, ok := c.prior(subject, pred, name); ok {
		return nil
	}
	who := c.entity(name, "person")
	return []lore.ExtractedFact{{
		Subject: subject, SubjectType: subjectType, Predicate: pred,
		Object: who, ObjectIsEntity: true, ObjectType: "person",
		Text: factText("%s has %s", subject, plural), ValidAt: timePtr(ref), Confidence: 0.7,
	}}
}

// placeFact states that who lives in (comes from, …) a place.
func (c *collector) placeFact(who, pred, verb, place string, ref time.Time) lore.ExtractedFact {
	p := c.entity(place, "place")
	return lore.ExtractedFact{
		Subject: who, SubjectType: "person", Predicate: pred, Object: p, ObjectIsEntity: true, ObjectType: "place",
		Text: factText("%s %s %s", who, verb, p), ValidAt: timePtr(ref), Confidence: 0.7,
	}
}
