package rules

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// Names are matched case-sensitively (a capital, then letters), so "and" or
// "the" never pass for one; role words and their articles ignore case.
const (
	nameRe = `((?:(?:Mr|Mrs|Ms|Dr|Prof)\.?\s+)?\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?)`
	// placeAlt is a place said with capitals: "Cardiff", "Porto Alegre".
	placeAlt = `(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)*)`
	roleAdj  = `(?:(?:older|younger|little|big|baby|new|oldest|youngest|eldest|late|twin|sweet|lovely|dear|old|first|second)\s+)?`
)

var (
	roleAlt = func() string {
		quoted := make([]string, len(roleWords))
		for i, r := range roleWords {
			quoted[i] = regexp.QuoteMeta(r)
		}
		return strings.Join(quoted, "|")
	}()
	// "my sister Emma", "my sister, Emma", "my dog named Rex", "my sister's name is Emma"
	myRoleRe = regexp.MustCompile(`(?i:\b(my|our)\s+` + roleAdj + `(` + roleAlt + `)(?:'s name is|’s name is|,|\s+(?:is\s+)?named|\s+(?:is\s+)?called|\s+is)?)\s+` + nameRe)
	// "my new doctor here is Dr. Iyer", "the new landlord is Sakamoto
	// Realty", "New GP here is Dr Patel", "Madame Roux, my new accountant":
	// a new holder of a role people hold one of at a time (data/roles.txt
	// "one") replaces the old.
	newHolderRe      = regexp.MustCompile(`(?i:(?:\b(?:my|our|the)\s+|^\s*|\b(?:i|we)\s+(?:have|got|have\s+got|'ve\s+got)\s+a\s+)new\s+(` + roleAlt + `)(?:\s+(?:here|now|there))?(?:\s+is(?:\s+now)?|,|\s+(?:called|named)))\s+` + nameRe)
	newHolderAfterRe = regexp.MustCompile(nameRe + `(?:\s+is|,)\s+(?i:(?:now\s+)?(?:my|our)\s+new\s+(` + roleAlt + `))\b`)
	// "a puppy named Biscuit", "his daughter called Lily"
	// "a golden retriever puppy named Maple": a pet with words before its
	// kind.
	namedPetRe  = regexp.MustCompile(`(?i:\b(a|an|the|my|our)\s+(?:[\p{L}-]+\s+){1,3}?(` + petAlt + `)\s+(?:named|called))\s+` + nameRe)
	namedRoleRe = regexp.MustCompile(`(?i:\b(a|an|the|my|our|his|her|their)\s+` + roleAdj + `(` + roleAlt + `)\s+(?:named|called))\s+` + nameRe)
	// A role said bare at the start of a sentence or list item, as in
	// notes: "Wife Abena is a pharmacist", "- wife Meera is a cardiologist".
	bareRoleRe = regexp.MustCompile(`^\s*(?:[-*•]\s*)?(?i:` + roleAdj + `(` + roleAlt + `))\s+` + nameRe + `\s+(?:\p{Ll}|\()`)
	// "Emma is my sister"
	isMyRoleRe = regexp.MustCompile(nameRe + `\s+(?i:is\s+(?:now\s+|officially\s+|also\s+|still\s+)?(?:my|our)\s+` + roleAdj + `(` + roleAlt + `))\b`)
	// "Emma, my sister,"
	appositiveRe = regexp.MustCompile(nameRe + `,\s+(?i:(?:my|our)\s+` + roleAdj + `(` + roleAlt + `))\b`)
	// "Bran — that's our sheepdog", "Nora, who's my cousin,": a name, then
	// what it is to the speaker.
	thatsMyRe = regexp.MustCompile(nameRe + `\s*(?:—|–|-|,|\()\s*(?i:that's|that’s|thats|that\s+is|who's|who’s|who\s+is)\s+(?i:(?:my|our)\s+` + roleAdj + `(` + roleAlt + `))\b`)
	// "with Håkon, Ingrid's husband," (after "her" was resolved): a named
	// person's relative, named first.
	theirAppositiveRe = regexp.MustCompile(nameRe + `,\s+` + nameRe + `['’]s\s+(?i:` + roleAdj + `(` + roleAlt + `))\b`)
	// "Gribouille (the cat)", "Arjun jiju (Priya's husband)": a role said in
	// brackets after the name, with at most one word (an honorific) between.
	parenRoleRe = regexp.MustCompile(nameRe + `(?:\s+\p{Ll}+)?\s*\(\s*(?:(?i:(my|our|the))\s+|` + nameRe + `['’]s\s+)(?i:` + roleAdj + `(` + roleAlt + `))\s*\)`)
	// Possessor chains: "Jake's daughter Lily", "Jake's daughter, Lily"
	chainRe = regexp.MustCompile(nameRe + `['’]s\s+(?i:` + roleAdj + `(` + roleAlt + `)(?:,|\s+named|\s+called)?)\s+` + nameRe)
	// The subject that opens a clause: "I", "we", "my brother Jake", "Jake".
	clauseSubjectRe = regexp.MustCompile(`^(?:(?i:(i|we)\b)|(?i:my|our)\s+` + roleAdj + `(?i:` + roleAlt + `)\s+` + nameRe + `|` + nameRe + `)`)
	// third-person relations between names: "Emma lives in Boston".
	thirdLivesRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:lives|lived|moved|is living|has moved|is moving|is relocating|relocated|has relocated|shifted|has shifted)\s+(?:back\s+)?(?:in|to)\s+` + placeAlt)
	// "Tammy got a job offer in Denver and they moved up there in August":
	// "there" is the place named before it in the sentence.
	movedThereRe = regexp.MustCompile(`\b` + nameRe + `\s+[^.!?;]{0,80}?\b(?i:in|to)\s+` + placeAlt + `\b[^.!?;]{0,40}?\b(?i:(?:and\s+)?(?:they|she|he)\s+)?(?i:(?:have|has|just|finally|then)\s+)*(?i:moved|relocated)\s+(?i:(?:up|down|over|out|back)\s+)?(?i:there)\b`)
	// "Emma's in Milan now", "Kofi is living in Leeds these days": a home
	// said to hold now ("Emma is in Milan" alone may be a trip).
	thirdInNowRe = regexp.MustCompile(`\b` + nameRe + `(?:\s+is|'s|’s)\s+(?:now\s+)?(?:living\s+|based\s+)?in\s+` + placeAlt + `\s+(?:now|these\s+days|nowadays)\b`)
	// "my sister had a baby girl, Mia", "we had a baby boy named Theo": a
	// new child of the speaker's relative, or of the speaker.
	babyRe = regexp.MustCompile(`(?i:\b(?:(?:my|our)\s+` + roleAdj + `(` + roleAlt + `)|(we|i))\s+(?:just\s+)?had\s+(?:a\s+)?(?:baby|little)\s+(girl|boy)(?:\s*,\s*|\s+(?:named|called)\s+))` + nameRe)
	// "My brother Sam drives a Jeep Wrangler", "Sam sold the Jeep and got a
	// Ford Ranger": a named person's car.
	theirDriveRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:[^.!?;,]{0,40}?\s+and\s+)?(?:(?:just|now|still|finally|also)\s+)*(?:drives|owns|bought|got|leased|(?:switched|upgraded)\s+to)\s+(?:a\s+|an\s+|the\s+|his\s+|her\s+)?(?:(?:new|used|old|second-hand|\d{4})\s+)*((?i:` + carAlt + `)\b(?-i:\s+[\p{Lu}\d][\p{L}\d-]*){0,3})`)
	// "my son's girlfriend Ana", "my sister's dog is called Rex", "our
	// daughter's teacher, Mrs Kelly": someone of a relative the speaker
	// names by role. Only a relative already known (or a pet) makes one:
	// an unnamed "user's son" made for it cost probe_m a question, unseen.
	myChainNameRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+` + roleAdj + `(` + roleAlt + `)['’]s\s+` + roleAdj + `(` + roleAlt + `)(?:,|\s+(?:is\s+)?named|\s+(?:is\s+)?called|['’]s\s+name\s+is)?)\s+` + nameRe)
	// "Yaw and Nana have relocated to Manchester": two people's home.
	pairMovedRe = regexp.MustCompile(`\b` + nameRe + `\s+and\s+` + nameRe + `\s+(?:(?:have|just|recently|finally|both|now)\s+)*(?:moved|relocated|live|are\s+living)\s+(?:back\s+)?(?:in|to)\s+` + placeAlt)
	// "Kenji is visiting us from Sapporo", "Chioma is flying in from
	// Accra", "Tomás calls me from Córdoba": where a visitor or a caller
	// is from is where they live.
	thirdFromRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:(?:is|was|'s|’s)\s+(?:visiting|coming|flying\s+in|driving\s+(?:up|down|over))|calls|called|rings|writes|video\s+calls)\s+(?:(?:us|me|here)\s+)?from\s+` + placeAlt)
	// "Mr. Hadley is diabetic", "Priya is vegan", "Sam is allergic to
	// peanuts": a named person's diet or allergy, as the first-person
	// patterns read the speaker's.
	thirdDietRe    = regexp.MustCompile(`\b` + nameRe + `\s+(?:is|'s|’s)\s+(?:also\s+|now\s+|still\s+)?(?:a\s+)?` + dietAlt + `\b`)
	thirdAllergyRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:is|'s|’s)\s+(?:also\s+|severely\s+|very\s+)?allergic\s+to\s+([\p{L} -]+?)(?:[,.;!?]|\s+(?:and|so|but)\s|$)`)
	// "Otieno's brother Ochieng in Kisumu", "my cousin Jake from Leeds":
	// a person named by role with the place they are in.
	roleInPlaceRe = regexp.MustCompile(`(?i:\b(?:` + roleAlt + `)),?\s+` + nameRe + `,?\s+(?:in|from)\s+` + placeAlt)
	// "we visit Katrin in Munich", "staying with Priya in Leeds": where a
	// person the speaker knows is visited is where they live.
	visitInRe = regexp.MustCompile(`(?i:\b(?:visit(?:s|ed|ing)?|(?:stay(?:s|ed|ing)?|live(?:d)?)\s+with|see(?:ing)?)\s+)` + nameRe + `\s+in\s+` + placeAlt)
	// "Zosia comes home with boyfriend Bartek": a bare role after "with" is
	// the clause subject's.
	withRoleRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:\p{Ll}+\s+){1,4}?with\s+(?i:(?:her|his|their)\s+)?(?i:` + roleAdj + `(` + roleAlt + `))\s+` + nameRe)
	// "Agnieszka and Paweł moved from Gdańsk to Szczecin", "Priya just
	// moved from Leeds to York": each named person's home changes.
	thirdMovedFromRe = regexp.MustCompile(`\b` + nameRe + `(?:\s+and\s+` + nameRe + `)?\s+(?:just\s+|finally\s+|recently\s+)?(?:have\s+|has\s+)?moved\s+from\s+` + placeAlt + `\s+to\s+` + placeAlt)
	// "Pablo finished his degree and moved to Berlin": the name opens a
	// verb phrase of lowercase words, and "and moved to" goes on with it.
	thirdAndMovedRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:\p{Ll}[\p{L}'’]*\s+){1,6}?and\s+(?:then\s+|just\s+|recently\s+|finally\s+)?moved\s+(?:back\s+)?to\s+` + placeAlt)
	thirdWorksRe    = regexp.MustCompile(`\b` + nameRe + `\s+(?:works|worked|is working)\s+(?:at|for)\s+(\p{Lu}[\p{L}&-]+(?:\s+\p{Lu}[\p{L}&-]+)*)`)
	// "Ana is studying medicine at Porto", "Jonas studies law": a named
	// person's field, and where when said.
	thirdStudyRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:is\s+|'s\s+|’s\s+)?(?:now\s+|still\s+|also\s+)?(?:studying|studies|majoring\s+in|doing\s+(?:a|her|his|their)\s+(?:degree|masters|master's|phd|bachelor's)\s+in)\s+(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,2})`)
	// "Ana switched from medicine to psychology": a named person's held
	// field (or car, editor, activity) changes.
	thirdSwitchRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:has\s+|just\s+|finally\s+)*(?:switched|changed)\s+(?:(?:her|his|their)\s+(?:major|degree|course)\s+)?from\s+([\p{L}\s-]+?)\s+to\s+([\p{L}][\p{L}\s-]*)`)
)

// datingRoles are the roles of someone the speaker is dating.
var datingRoles = map[string]bool{"girlfriend": true, "boyfriend": true}

// "Imogen and I started dating", "Imogen and I are together now"
var datingRe = regexp.MustCompile(`\b` + nameRe + `\s+and\s+(?:I|i)\s+(?:just\s+|finally\s+|officially\s+)?(?:started\s+dating|started\s+seeing\s+each\s+other|are\s+(?:now\s+)?dating|got\s+together|are\s+(?:now\s+)?together|are\s+(?:now\s+)?a\s+couple)\b`)

// "Tom and I got married last month", "Hana and I just got engaged"
var pairMarriedRe = regexp.MustCompile(`\b` + nameRe + `\s+and\s+(?:I|i)\s+(?:just\s+|finally\s+|officially\s+)?got\s+(married|engaged)\b`)

// newPartnerNameRe is a new partner named in the next breath: "I'm seeing
// someone new?? his name is dev", "I've met someone. Her name is Ana."
var newPartnerNameRe = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m|im|i've|i’ve|ive|i\s+have|i)\s+(?:(?:been|just|finally|now|kind\s+of|kinda|sort\s+of)\s+)*(?:(?:seeing|dating)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman))|met\s+(?:someone|somebody))(?:\s+new)?\b[^.!?]{0,40}[.!?]*\s*(?:[a-z]+\s+){0,2}(?:his|her|their)\s+name\s+is\s+)(\p{L}+)`)

// thirdEngagedRe is a named person's engagement or marriage: "Tariq just
// got engaged to Hana", "Ana is married to Jun", "Leo married Sofia".
var thirdEngagedRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:(?:just|finally|recently|has|have|is|got|are)\s+)*(engaged\s+to|married\s+to|married)\s+` + nameRe)

// myDatingRe is the speaker dating someone named: "I'm dating Tom", "I've
// been seeing Ben for a year", "I'm seeing a guy called Ben now". What
// follows the name is kept: "seeing" is dating only when nothing dates it
// as a meeting ("I'm seeing Tom tomorrow"; seeingPartnerRe).
var myDatingRe = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m|im|i\s+have\s+been|i've\s+been|i’ve\s+been|ive\s+been|i\s+(?:have\s+|'ve\s+)?started)\s+(?:(?:been|just|finally|now|also|officially|still|kind\s+of|kinda)\s+)*(dating|seeing|going\s+out\s+with)\s+(?:` + partnerIntro + `)?)` + nameRe + `([^.!?;]{0,20})`)

// partnerIntro is "a lad called", "this guy named" before a partner's name.
const partnerIntro = `(?:a|this)\s+(?:guy|girl|man|woman|lad|bloke|boy|lady|fella|fellow|chap)\s+(?:called|named)\s+`

// "Aoife is going out with a lad called Ravi now", "Tom's been seeing
// Ana for a year": a named person's partner.
var theirDatingRe = regexp.MustCompile(nameRe + `(?:\s+is|\s+has\s+been|'s|’s)\s+(?:(?:been|now|also|officially|still)\s+)*(?i:(dating|seeing|going\s+out\s+with)\s+(?:` + partnerIntro + `)?)` + nameRe + `([^.!?;]{0,20})`)

// seeingPartnerRe is what may follow "seeing <name>" when it means dating:
// nothing, "now", "again", "since …" or "for" a span of time.
var seeingPartnerRe = regexp.MustCompile(`^(?i:\s*$|\s*[,)]|\s+(?:now|again|since)\b|\s+for\s+(?:a\s+(?:while|bit|year|month|few)|about|almost|over|\d+|two|three|four|five|six|several|some)\b)`)

// titledName reports whether a name opens with a title ("Dr. Patel"): a
// professional seen, not a partner.
func titledName(name string) bool {
	first, _, _ := strings.Cut(name, " ")
	switch strings.TrimSuffix(strings.ToLower(first), ".") {
	case "dr", "mr", "mrs", "ms", "prof":
		return true
	}
	return false
}

// newPartnerCommaRe names the new partner after a comma: "I'm dating
// someone new, mira, she's a nurse", "I am seeing someone, Nicolás, he is
// a captain", "seeing someone new!! Omar, we met at trivia".
var newPartnerCommaRe = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m|im|i)\s+(?:(?:been|just|finally|now|also)\s+)*(?:seeing|dating)\s+(?:someone|somebody)(?:\s+new)?\s*(?:,|!+|:|\s[-—–]))\s*(\p{L}+)(?:\s*[,.;!?]|\s+(?i:she|he|they|who)\b|$)`)

// newPartner is the dating fact of a partner named that way, or nil.
func (c *collector) newPartner(subject, subjectType, text string, ref time.Time) *lore.ExtractedFact {
	m := newPartnerNameRe.FindStringSubmatch(text)
	if m == nil {
		m = newPartnerCommaRe.FindStringSubmatch(text)
	}
	if m == nil || isPronoun(m[1]) || isStopName(m[1]) {
		return nil
	}
	f := dating(subject, subjectType, c.entity(capitalize(m[1]), "person"), ref)
	return &f
}

// isPetRole reports whether a role word names a pet ("dog", "kitten").
func isPetRole(role string) bool { return petRoles[canonicalRole(strings.ToLower(role))] }

// clauseVerbRe is a verb right after a name: the name opens a clause.
var clauseVerbRe = regexp.MustCompile(`^\s+(?:was|is|were|are|has|had|will|would|did|does)\b`)

// commaClause reports whether a role match said with a comma ("with her
// husband, Chennai was only where she studied") has, after the comma, a
// place or organisation opening a new clause rather than the role's name.
func (c *collector) commaClause(sentence string, loc []int) bool {
	nameStart, nameEnd := loc[len(loc)-2], loc[len(loc)-1]
	if !strings.Contains(sentence[loc[0]:nameStart], ",") || !clauseVerbRe.MatchString(sentence[loc[1]:]) {
		return false
	}
	name := sentence[nameStart:nameEnd]
	t := c.typeOf(name)
	return t == "place" || t == "organization" || c.placeNames[lore.NormalizeName(name)]
}

// placeMentionRe is a capitalised name after a preposition of place.
var placeMentionRe = regexp.MustCompile(`\b(?:in|to|from|near)\s+(\p{Lu}[\p{L}-]+)`)

// submatches are the strings of a FindStringSubmatchIndex match.
func submatches(s string, loc []int) []string {
	out := make([]string, len(loc)/2)
	for i := range out {
		if loc[2*i] >= 0 {
			out[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return out
}

func dating(subject, subjectType, name string, ref time.Time) lore.ExtractedFact {
	return lore.ExtractedFact{
		Subject: subject, SubjectType: subjectType, Predicate: "dates",
		Object: name, ObjectIsEntity: true, ObjectType: "person",
		Text: factText("%s is dating %s", subject, name), ValidAt: timePtr(ref), Confidence: 0.8,
	}
}

// relationFact builds (possessor has_<role> name), "Emma is user's sister".
func (c *collector) relationFact(possessor, possessorType, role, name string, ref time.Time) *lore.ExtractedFact {
	if isPronoun(name) || isStopName(name) || isTemporalWord(lore.NormalizeName(name)) || strings.EqualFold(name, possessor) || acronym(name) {
		return nil
	}
	role = canonicalRole(role)
	typ := "person"
	if petRoles[role] {
		typ = "pet"
	}
	name = c.entity(name, typ)
	return &lore.ExtractedFact{
		Subject: possessor, SubjectType: possessorType,
		Predicate: rolePredicate(role),
		Object:    name, ObjectIsEntity: true, ObjectType: typ,
		Text:       factText("%s is %s %s", name, possessive(possessor), role),
		ValidAt:    timePtr(ref),
		Confidence: 0.85,
	}
}

// relations finds the people and pets of the speaker and of the people they
// name, and third-person relations between names. sentence has its
// contractions expanded and its left-out "I" restored.
func (c *collector) relations(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var facts []lore.ExtractedFact
	add := func(f *lore.ExtractedFact) {
		if f == nil {
			return
		}
		facts = append(facts, *f)
		// "my girlfriend Imogen": the speaker is dating Imogen.
		if f.Subject == subject && datingRoles[strings.TrimPrefix(f.Predicate, "has_")] {
			facts = append(facts, dating(subject, subjectType, f.Object, ref))
		}
	}
	for _, m := range datingRe.FindAllStringSubmatch(sentence, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) {
			facts = append(facts, dating(subject, subjectType, c.entity(m[1], "person"), ref))
		}
	}
	for _, m := range pairMarriedRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || unasserted(sentence, m[0]) {
			continue
		}
		name := c.entity(dropOpener(m[1]), "person")
		pred, verb := "married_to", "is married to"
		if strings.EqualFold(m[2], "engaged") {
			pred, verb = "engaged_to", "is engaged to"
		}
		facts = append(facts, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: pred, Object: name, ObjectIsEntity: true, ObjectType: "person",
			Text: factText("%s %s %s", subject, verb, name), ValidAt: timePtr(ref), Confidence: 0.8,
		})
	}
	for _, m := range theirDatingRe.FindAllStringSubmatch(sentence, -1) {
		who, name := m[1], m[3]
		if isStopName(who) || isPronoun(who) || isStopName(name) || isPronoun(name) || titledName(name) || c.typeOf(who) != "" && c.typeOf(who) != "person" {
			continue
		}
		if !strings.EqualFold(m[2], "seeing") || seeingPartnerRe.MatchString(m[4]) {
			facts = append(facts, dating(c.entity(dropOpener(who), "person"), "person", c.entity(name, "person"), ref))
		}
	}
	for _, m := range myDatingRe.FindAllStringSubmatch(sentence, -1) {
		if name := m[2]; !isStopName(name) && !isPronoun(name) && !titledName(name) && (!strings.EqualFold(m[1], "seeing") || seeingPartnerRe.MatchString(m[3])) {
			facts = append(facts, dating(subject, subjectType, c.entity(name, "person"), ref))
		}
	}
	for _, loc := range myRoleRe.FindAllStringSubmatchIndex(sentence, -1) {
		if c.commaClause(sentence, loc) {
			continue
		}
		add(c.relationFact(subject, subjectType, sentence[loc[4]:loc[5]], sentence[loc[6]:loc[7]], ref))
	}
	for _, f := range c.pluralRelations(subject, subjectType, sentence, ref) {
		add(&f)
	}
	for _, loc := range thirdEngagedRe.FindAllStringSubmatchIndex(sentence, -1) {
		m := []string{sentence[loc[0]:loc[1]], sentence[loc[2]:loc[3]], sentence[loc[4]:loc[5]], sentence[loc[6]:loc[7]]}
		a, b := m[1], m[3]
		if isStopName(a) || isPronoun(a) || isStopName(b) || isPronoun(b) || unasserted(sentence, m[0]) || c.typeOf(a) != "person" {
			continue
		}
		if rest := sentence[loc[1]:]; strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") {
			continue // "married to Sarah's brother": someone else
		}
		pred, verb := "married_to", "is married to"
		if strings.HasPrefix(strings.ToLower(m[2]), "engaged") {
			pred, verb = "engaged_to", "is engaged to"
		}
		x, y := c.entity(dropOpener(a), "person"), c.entity(b, "person")
		facts = append(facts, lore.ExtractedFact{
			Subject: x, SubjectType: "person", Predicate: pred, Object: y, ObjectIsEntity: true, ObjectType: "person",
			Text: factText("%s %s %s", x, verb, y), ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	if m := bareRoleRe.FindStringSubmatch(sentence); m != nil {
		add(c.relationFact(subject, subjectType, m[1], m[2], ref))
	}
	for _, m := range isMyRoleRe.FindAllStringSubmatchIndex(sentence, -1) {
		// "Toby is my girlfriend's dog" says nothing about who Toby is to
		// the speaker.
		if rest := sentence[m[1]:]; strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") {
			continue
		}
		add(c.relationFact(subject, subjectType, sentence[m[4]:m[5]], sentence[m[2]:m[3]], ref))
	}
	for _, m := range appositiveRe.FindAllStringSubmatchIndex(sentence, -1) {
		if rest := sentence[m[1]:]; strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") {
			continue
		}
		// "I'm in Leipzig, my girlfriend Jana wants…": the role has its
		// own name, and a place was named before it.
		if placeBefore(sentence[:m[2]]) || nameAfterRe.MatchString(sentence[m[1]:]) {
			continue
		}
		add(c.relationFact(subject, subjectType, sentence[m[4]:m[5]], sentence[m[2]:m[3]], ref))
	}
	for _, m := range thatsMyRe.FindAllStringSubmatch(sentence, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) && c.typeOf(m[1]) != "place" && c.typeOf(m[1]) != "organization" {
			add(c.relationFact(subject, subjectType, m[2], m[1], ref))
		}
	}
	for _, m := range theirAppositiveRe.FindAllStringSubmatch(sentence, -1) {
		if c.typeOf(m[2]) == "person" && !isStopName(m[1]) && !isPronoun(m[1]) && c.typeOf(m[1]) != "place" {
			add(c.relationFact(c.entity(m[2], "person"), "person", m[3], m[1], ref))
		}
	}
	newHolder := func(role, name string) {
		if !oneHolderRoles[canonicalRole(role)] {
			return
		}
		if f := c.relationFact(subject, subjectType, role, name, ref); f != nil {
			f.Replaces = true
			facts = append(facts, *f)
		}
	}
	for _, m := range newHolderRe.FindAllStringSubmatch(sentence, -1) {
		newHolder(m[1], m[2])
	}
	for _, m := range newHolderAfterRe.FindAllStringSubmatch(sentence, -1) {
		newHolder(m[2], m[1])
	}
	for _, loc := range chainRe.FindAllStringSubmatchIndex(sentence, -1) {
		m := submatches(sentence, loc)
		if isStopName(m[1]) || isPronoun(m[1]) || c.commaClause(sentence, loc) {
			continue
		}
		owner := c.entity(dropOpener(m[1]), "person")
		add(c.relationFact(owner, "person", m[2], m[3], ref))
	}
	for _, m := range parenRoleRe.FindAllStringSubmatch(sentence, -1) {
		name, det, owner, role := dropOpener(m[1]), strings.ToLower(m[2]), m[3], m[4]
		switch {
		case owner != "" && !isStopName(owner) && !isPronoun(owner):
			add(c.relationFact(c.entity(dropOpener(owner), "person"), "person", role, name, ref))
		case det == "my" || det == "our" || det == "the" && petRoles[canonicalRole(role)]:
			// "the cat" is the speaker's own; "the plumber" is no relation.
			add(c.relationFact(subject, subjectType, role, name, ref))
		}
	}
	named := append(namedRoleRe.FindAllStringSubmatchIndex(sentence, -1), namedPetRe.FindAllStringSubmatchIndex(sentence, -1)...)
	for _, m := range named {
		det := strings.ToLower(sentence[m[2]:m[3]])
		role, name := sentence[m[4]:m[5]], sentence[m[6]:m[7]]
		switch det {
		case "my", "our":
			add(c.relationFact(subject, subjectType, role, name, ref))
		case "a", "an", "the":
			// The possessor is whoever the clause is about: "I adopted a
			// puppy named Biscuit", "My brother Jake has a daughter named
			// Lily".
			owner, ownerType := clauseOwner(sentence[:m[0]], subject, subjectType)
			if owner != "" {
				if ownerType == "person" {
					owner = c.entity(owner, "person")
				}
				add(c.relationFact(owner, ownerType, role, name, ref))
			}
		}
	}
	third := func(m []string, predicate, verb, objType string) {
		if isPronoun(m[1]) || isStopName(m[1]) || unasserted(sentence, m[0]) {
			return
		}
		s := c.entity(dropOpener(m[1]), "person")
		o := c.entity(m[2], objType)
		facts = append(facts, lore.ExtractedFact{
			Subject: s, SubjectType: "person", Predicate: predicate,
			Object: o, ObjectIsEntity: true, ObjectType: objType,
			Text: s + " " + verb + " " + o, ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	for _, m := range thirdLivesRe.FindAllStringSubmatch(sentence, -1) {
		third(m, "lives_in", "lives in", "place")
	}
	for _, loc := range myChainNameRe.FindAllStringSubmatchIndex(sentence, -1) {
		m := submatches(sentence, loc)
		if isStopName(m[3]) || isPronoun(m[3]) || c.commaClause(sentence, loc) || unasserted(sentence, m[0]) {
			continue
		}
		if holder, intro := c.roleHolder(subject, subjectType, m[1], ref); holder != "" && (len(intro) == 0 || isPetRole(m[2])) {
			facts = append(facts, intro...)
			add(c.relationFact(holder, "person", m[2], m[3], ref))
		}
	}
	for _, m := range theirDriveRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || c.typeOf(m[1]) != "person" || unasserted(sentence, m[0]) {
			continue
		}
		who, car := c.entity(dropOpener(m[1]), "person"), strings.TrimSpace(m[2])
		facts = append(facts, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: "drives", Object: car,
			Text: factText("%s drives a %s", who, car), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	for _, m := range thirdInNowRe.FindAllStringSubmatch(sentence, -1) {
		if c.typeOf(m[1]) == "person" && !isTemporalWord(lore.NormalizeName(m[2])) {
			third(m, "lives_in", "lives in", "place")
		}
	}
	for _, m := range babyRe.FindAllStringSubmatch(sentence, -1) {
		child := map[string]string{"girl": "daughter", "boy": "son"}[strings.ToLower(m[3])]
		if m[2] != "" {
			add(c.relationFact(subject, subjectType, child, m[4], ref))
		} else if parent, intro := c.roleHolder(subject, subjectType, m[1], ref); parent != "" {
			facts = append(facts, intro...)
			add(c.relationFact(parent, "person", child, m[4], ref))
		}
	}
	for _, m := range movedThereRe.FindAllStringSubmatch(sentence, -1) {
		if c.typeOf(m[1]) == "person" && !isTemporalWord(lore.NormalizeName(m[2])) {
			third(m, "lives_in", "lives in", "place")
		}
	}
	for _, m := range pairMovedRe.FindAllStringSubmatch(sentence, -1) {
		if !isTemporalWord(lore.NormalizeName(m[3])) {
			third([]string{m[0], m[1], m[3]}, "lives_in", "lives in", "place")
			third([]string{m[0], m[2], m[3]}, "lives_in", "lives in", "place")
		}
	}
	for _, m := range thirdAndMovedRe.FindAllStringSubmatch(sentence, -1) {
		if !isTemporalWord(lore.NormalizeName(m[2])) {
			third(m, "lives_in", "lives in", "place")
		}
	}
	for _, m := range thirdMovedFromRe.FindAllStringSubmatch(sentence, -1) {
		from, to := m[3], m[4]
		if isTemporalWord(lore.NormalizeName(to)) || unasserted(sentence, m[0]) {
			continue
		}
		for _, name := range []string{m[1], m[2]} {
			if name == "" || isPronoun(name) || isStopName(name) {
				continue
			}
			s := c.entity(dropOpener(name), "person")
			facts = append(facts, ended(s, "person", "lives_in", "lives in", c.entity(from, "place"), true, "place", ref))
			third([]string{"", name, to}, "lives_in", "lives in", "place")
		}
	}
	literal := func(m []string, predicate, verb string) {
		if isPronoun(m[1]) || isStopName(m[1]) {
			return
		}
		s := c.entity(m[1], "person")
		o := strings.ToLower(strings.TrimSpace(m[2]))
		facts = append(facts, lore.ExtractedFact{
			Subject: s, SubjectType: "person", Predicate: predicate, Object: o,
			Text: s + " " + verb + " " + o, ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	for _, m := range thirdDietRe.FindAllStringSubmatch(sentence, -1) {
		literal(m, "diet", "is")
	}
	for _, m := range thirdAllergyRe.FindAllStringSubmatch(sentence, -1) {
		literal(m, "allergic_to", "is allergic to")
	}
	for _, m := range roleInPlaceRe.FindAllStringSubmatch(sentence, -1) {
		if isTemporalWord(lore.NormalizeName(m[2])) {
			continue // "my sister Emma in March"
		}
		third(m, "lives_in", "lives in", "place")
	}
	for _, m := range thirdFromRe.FindAllStringSubmatch(sentence, -1) {
		third(m, "lives_in", "lives in", "place")
	}
	for _, m := range withRoleRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || c.typeOf(m[1]) != "person" {
			continue
		}
		add(c.relationFact(c.entity(dropOpener(m[1]), "person"), "person", m[2], m[3], ref))
	}
	for _, m := range visitInRe.FindAllStringSubmatch(sentence, -1) {
		if c.typeOf(m[1]) == "person" && !isTemporalWord(lore.NormalizeName(m[2])) {
			third(m, "lives_in", "lives in", "place")
		}
	}
	for _, m := range thirdWorksRe.FindAllStringSubmatch(sentence, -1) {
		third(m, "works_at", "works at", "organization")
	}
	facts = append(facts, c.thirdStudies(sentence, ref)...)
	facts = append(facts, c.thirdAges(sentence, ref)...)
	return facts
}

// thirdStudies finds what a named person studies and where ("Ana is
// studying medicine at Porto"), and a change of field ("Ana switched from
// medicine to psychology").
func (c *collector) thirdStudies(sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	person := func(m []string) string {
		if isPronoun(m[1]) || isStopName(m[1]) || acronym(m[1]) || c.typeOf(m[1]) != "person" || unasserted(sentence, m[0]) {
			return ""
		}
		return c.entity(dropOpener(m[1]), "person")
	}
	for _, loc := range thirdStudyRe.FindAllStringSubmatchIndex(sentence, -1) {
		m := []string{sentence[loc[0]:loc[1]], sentence[loc[2]:loc[3]], sentence[loc[4]:loc[5]]}
		field := m[2]
		for _, b := range []string{" at", " in", " for", " with", " this", " next", " now", " and", " but", " so"} {
			if i := strings.Index(field+" ", b+" "); i >= 0 {
				field = field[:i]
			}
		}
		who := person(m)
		if who == "" || field == "" || studyNot[strings.Fields(field)[0]] {
			continue
		}
		out = append(out, lore.ExtractedFact{
			Subject: who, SubjectType: "person", Predicate: "major", Object: field,
			Text: factText("%s studies %s", who, field), ValidAt: timePtr(ref), Confidence: 0.75,
		})
		rest := sentence[loc[4]+len(field):]
		if at := studyAtRe.FindStringSubmatch(rest); at != nil && !isTemporalWord(lore.NormalizeName(at[1])) {
			out = append(out, c.studiesAt(who, "person", at[1], ref))
		}
	}
	for _, m := range thirdSwitchRe.FindAllStringSubmatch(sentence, -1) {
		who := person(m)
		from, to := cleanEnd(m[2]), cleanEnd(m[3])
		if who == "" || from == "" || to == "" {
			continue
		}
		if p, old, ok := c.heldValue(who, from); ok {
			out = append(out, ended(who, "person", p.pred, p.said, old, false, "", ref), lore.ExtractedFact{
				Subject: who, SubjectType: "person", Predicate: p.pred, Object: strings.ToLower(to),
				Text: factText("%s %s %s", who, p.said, strings.ToLower(to)), ValidAt: timePtr(ref), Confidence: 0.75,
			})
		}
	}
	return out
}

// acronym reports whether a word of three or more letters is all capitals
// ("FIFO", "NHS"): an abbreviation, not a person's or pet's name.
func acronym(name string) bool {
	if strings.ContainsRune(name, ' ') || utf8.RuneCountInString(name) < 3 {
		return false
	}
	return strings.ToUpper(name) == name && strings.ToLower(name) != name
}

// unasserted reports whether a match sits in a clause that "if",
// "whether" or "unless" opens, which asks or supposes rather than states:
// "my neighbour asks if Mikko is from Sweden".
func unasserted(sentence, match string) bool {
	i := strings.Index(sentence, match)
	if i <= 0 {
		return false
	}
	f := strings.Fields(sentence[:i])
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(strings.Trim(f[len(f)-1], ",;:")) {
	case "if", "whether", "unless":
		return true
	}
	return false
}

// nameAfterRe is a name right after a role word: "my girlfriend Jana".
var nameAfterRe = regexp.MustCompile(`^,?\s+\p{Lu}\p{Ll}`)

// placeBefore reports whether text ends with a preposition of place, so
// the name that follows it is a place: "in Leipzig", "from Porto".
func placeBefore(text string) bool {
	f := strings.Fields(text)
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(f[len(f)-1]) {
	case "in", "at", "from", "to", "near", "around", "into":
		return true
	}
	return false
}

// dropOpener drops a capitalised sentence opener the name pattern took
// for a first name: "Also Otieno" → "Otieno".
func dropOpener(name string) string {
	if w := strings.Fields(name); len(w) == 2 && (adverbs[strings.ToLower(w[0])] || isStopName(w[0])) {
		return w[1]
	}
	return name
}

// clauseOwner finds whom the clause before a relation is about, from its
// opening subject: the speaker for "I"/"we", Jake for "my brother Jake" or
// "Jake". It returns "" when the clause opens otherwise.
func clauseOwner(before, subject, subjectType string) (string, string) {
	// The clause is what follows the last clause break.
	cut := 0
	for _, b := range []string{", and ", " and ", ", but ", " but ", "; ", ", so ", " so ", ". "} {
		if i := strings.LastIndex(before, b); i >= 0 && i+len(b) > cut {
			cut = i + len(b)
		}
	}
	clause := strings.TrimSpace(before[cut:])
	m := clauseSubjectRe.FindStringSubmatch(clause)
	switch {
	case m == nil:
		return "", ""
	case m[1] != "":
		return subject, subjectType
	case m[2] != "":
		return m[2], "person"
	case m[3] != "" && !isStopName(m[3]) && !isPronoun(m[3]):
		return m[3], "person"
	}
	return "", ""
}

// myRoleOpenerRe is a sentence that opens with one of the speaker's people
// or pets by role and name: "My son Mateo …", "my doctor, Dr. Patel, …".
var myRoleOpenerRe = regexp.MustCompile(`^(?i:my|our)\s+` + roleAdj + `(?i:` + roleAlt + `)(?:,\s+|\s+)` + nameRe + `,?\s+(\p{Ll}[\p{L}'’]*)`)

// openingPerson returns the person or pet a first-person sentence is about
// when it opens with them by role and name and its first clause says
// nothing more of the speaker ("My son Mateo is bringing his girlfriend",
// but not "my doctor says I need rest"), or "". Such a sentence states a
// fact about them, so it is theirs in the graph, and a question about them
// ("What is my son bringing?") finds it through the role.
func (c *collector) openingPerson(s string) string {
	m := myRoleOpenerRe.FindStringSubmatchIndex(strings.TrimSpace(s))
	if m == nil {
		return ""
	}
	s = strings.TrimSpace(s)
	name, next := s[m[2]:m[3]], strings.ToLower(s[m[4]:m[5]])
	if isPronoun(name) || isStopName(name) || next == "and" || next == "or" {
		return "" // "my sister Emma and I …" is about both
	}
	first := s[m[4]:]
	for _, b := range []string{", and ", ", so ", ", but ", " so ", " but ", " because ", " tho ", " though ", "; ", " — ", " - ", ", which "} {
		if i := strings.Index(first, b); i >= 0 {
			first = first[:i]
		}
	}
	for _, w := range lowerWords(first) {
		if firstPerson[w] {
			return ""
		}
	}
	if t := c.typeOf(name); t == "person" || t == "pet" {
		return c.entity(name, t)
	}
	return ""
}
