package rules

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lore-memory/lore"
)

// Pronoun coreference, within a speaker's message and across their previous
// few messages of the batch: "My sister Nomsa is helping. She just started at
// the hospital in Umhlanga" → "Nomsa just started at …"; "Our book club host
// Margaret picked Middlemarch" then "her husband Gerald is a retired pilot" →
// "Margaret's husband Gerald …". The antecedent is the person the speaker
// named last whose role word fits the pronoun (data/gender.txt); a person
// named without a role fits both. An unnamed role ("my mom keeps calling …
// she's a nurse") stands as "my mom".

// antecedent is someone a later "she"/"he"/"her"/"his" may mean.
type antecedent struct {
	ref    string // "Nomsa", or "my mom" for an unnamed role
	gender byte   // 'f', 'm' or 0 when unknown
	msg    int    // the speaker's message number it was last named in
}

// corefWindow is how many of a speaker's messages an antecedent outlives:
// the message it was named in and the next two.
const corefWindow = 2

var (
	roleGender = readGender()
	capWordRe  = regexp.MustCompile(`(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?\p{Lu}[\p{L}-]+`)
	// "her name is Imogen", "his name's Theo"
	pronounNameRe = regexp.MustCompile(`(?i:\b(her|his)\s+name(?:\s+is|'s|’s)\s+)` + nameRe)
	// "this guy Ravi", "a girl named Saoirse", "someone called Jo": a person
	// introduced without a role.
	introNameRe = regexp.MustCompile(`(?i:\b(?:this|that|a|some|one|an?\s+old)\s+(guy|man|boy|dude|bloke|lad|girl|woman|lady|gal|person)|\bsomeone)(?i:\s+(?:named|called))?\s+` + nameRe)
	// "got engaged to Hana", "is married to Jun", "marrying Leila": a person
	// named as someone's partner.
	partnerNameRe = regexp.MustCompile(`(?i:\b(?:engaged\s+to|married\s+to|marrying|married)\s+)` + nameRe)
	// "with Håkon, her husband, he's a biologist": a name whose role,
	// said right after it, gives its gender.
	appositiveRoleRe = regexp.MustCompile(`\b(\p{Lu}[\p{L}-]+),\s+(?i:(?:my|our|his|her|their)|\p{Lu}[\p{L}-]+['’]s)\s+` + roleAdj + `(` + roleAlt + `)\b`)
	// "my mom" with no name after it.
	myBareRoleRe = regexp.MustCompile(`(?i:\b(my|our)\s+` + roleAdj + `(` + roleAlt + `))\b`)
	// A subject pronoun opening a clause: sentence start, after a comma
	// or dash ("Hanne thinks I'm strict — she's a therapist"), or
	// after a conjunction.
	subjPronounRe = regexp.MustCompile(`(?i)(^|[,;:—–]\s*|\s-\s+|\b(?:and|but|so|because|since|though|cause|cuz|guess|think|know|hope|says|said|mean|where)\s+)(she|he)(['’]s|\b)`)
	// "her husband", "his older sister"
	// "my sister's boyfriend Tom": a person named through an unnamed
	// relative, who has no graph node but is a "he" for what follows.
	myRoleChainRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+` + roleAdj + `(?:` + roleAlt + `)['’]s\s+` + roleAdj + `(` + roleAlt + `)(?:,|\s+named|\s+called)?)\s+` + nameRe)
	possPronounRe = regexp.MustCompile(`(?i)\b(her|his)\s+(` + roleAdj + `(?:` + roleAlt + `))\b`)
)

// petIsRe is what follows a pronoun that means a pet: "he's our basset
// hound", "she is my cat".
var petIsRe = regexp.MustCompile(`^(?:'s|’s|\s+is)\s+(?i:(?:my|our)\s+(?:` + breedAlt + `|(?:[\p{L}-]+\s+)?(?:` + petAlt + `))\b)`)

// introGender is the gender the word introducing a person gives them.
var introGender = map[string]byte{"guy": 'm', "man": 'm', "boy": 'm', "dude": 'm', "bloke": 'm', "lad": 'm', "girl": 'f', "woman": 'f', "lady": 'f', "gal": 'f'}

func readGender() map[string]byte {
	m := map[string]byte{}
	for _, line := range readList("gender.txt") {
		i := strings.LastIndex(line, " ")
		if i < 0 {
			continue
		}
		m[line[:i]] = line[i+1]
	}
	return m
}

// predicativeRe ends the text before a role that says what someone named
// before it is ("Felix is my roommate").
var predicativeRe = regexp.MustCompile(`(?:\b(?:is|isn't|isn’t|was|wasn't|not|as|became|becomes|be)|['’]s)\s+$`)

// titleGender is the gender a courtesy title gives a name ("Mr. Okafor").
func titleGender(name string) byte {
	switch strings.ToLower(strings.TrimSuffix(strings.Fields(name + " x")[0], ".")) {
	case "mr":
		return 'm'
	case "mrs", "ms", "miss":
		return 'f'
	}
	return 0
}

func pronounGender(p string) byte {
	switch strings.ToLower(p) {
	case "she", "her":
		return 'f'
	case "he", "his":
		return 'm'
	}
	return 0
}

// antecedentFor returns whom a pronoun of speaker means now, or "".
func (c *collector) antecedentFor(speaker string, g byte) string {
	list := c.antes[speaker]
	now := c.msgs[speaker]
	for i := len(list) - 1; i >= 0; i-- {
		a := list[i]
		if now-a.msg > corefWindow {
			break
		}
		if a.gender == 0 || a.gender == g {
			// "Euan … he's useless": Euan is a he from now on, so a
			// later "she" means someone else.
			if a.gender == 0 && g != 0 {
				c.genders[a.ref] = g
			}
			return a.ref
		}
	}
	return ""
}

// storedGender is the gender a known person's stored role gives them
// (user has_wife Nino): a later session's "he" then skips Nino though no
// pronoun of this batch said so.
func (c *collector) storedGender(name string) byte {
	key := lore.NormalizeName(name)
	if g, ok := c.storedGenders[key]; ok {
		return g
	}
	g := c.scanStoredGender(name)
	c.storedGenders[key] = g
	return g
}

// scanStoredGender is storedGender without its memo: one pass over the
// request's facts.
func (c *collector) scanStoredGender(name string) byte {
	for _, f := range c.candFacts {
		if f == nil || f.InvalidAt != nil || !strings.EqualFold(f.Object, name) {
			continue
		}
		if role, ok := strings.CutPrefix(f.Predicate, "has_"); ok {
			if g := roleGender[canonicalRole(strings.ReplaceAll(role, "_", " "))]; g != 0 {
				return g
			}
		}
	}
	return 0
}

// resolvePronouns rewrites the subject and possessive pronouns of a
// sentence by speaker to the people they mean, where the speaker named one
// just before. A pronoun means someone named before it: the people of
// earlier sentences (before, the antecedents as the sentence began) and
// those the sentence names ahead of the pronoun ("My son Mateo is bringing
// his girlfriend Keisha, and my brother Ernesto…": his is Mateo's).
func (c *collector) resolvePronouns(s, speaker string, before []antecedent) string {
	if len(c.antes[speaker]) == 0 && !subjPronounRe.MatchString(s) {
		return s
	}
	upTo := func(prefix string, g byte) string {
		saved := c.antes[speaker]
		c.antes[speaker] = slices.Clone(before)
		c.noteAntecedents(prefix, speaker)
		ref := c.antecedentFor(speaker, g)
		c.antes[speaker] = saved
		return ref
	}
	var b strings.Builder
	last := 0
	for _, m := range possPronounRe.FindAllStringSubmatchIndex(s, -1) {
		ref := upTo(s[:m[0]], pronounGender(s[m[2]:m[3]]))
		if ref == "" {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(possessive(ref) + " " + s[m[4]:m[5]])
		last = m[1]
	}
	b.WriteString(s[last:])
	s = b.String()
	// "her husband Gerald … and he makes scones": Gerald is named now.
	c.noteAntecedents(s, speaker)
	b.Reset()
	last = 0
	for _, m := range subjPronounRe.FindAllStringSubmatchIndex(s, -1) {
		rest := s[m[1]:]
		if m[6] == m[7] && (strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "’")) {
			continue // "she'll", "he'd": left as said
		}
		var ref string
		if lead := c.unknownLead(s[:m[4]]); lead != "" {
			ref = lead
		} else if petIsRe.MatchString(s[m[5]:]) {
			continue // "…, he's our basset hound": a pet, read by breedFacts
		} else {
			ref = upTo(s[:m[4]], pronounGender(s[m[4]:m[5]]))
		}
		if ref == "" {
			continue
		}
		if m[2] == m[3] && m[2] == 0 && strings.HasPrefix(ref, "my ") {
			ref = "My " + ref[3:]
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(ref)
		if m[6] != m[7] {
			b.WriteString(" is")
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// unknownLead returns the name a sentence opens with when nobody has named
// it before, or "": "Reks will be happy with the sausages, he is our dog"
// is about Reks, whoever the speaker named earlier, so its "he" is Reks,
// not the last person named.
func (c *collector) unknownLead(prefix string) string {
	w := firstWord(prefix)
	if w == "" || !startsUpper(w) || isStopName(w) || !nameLike(strings.ToLower(w)) {
		return ""
	}
	if strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") {
		return "" // "Yasmine's fiancé Karim …, so he": the sentence is about Karim
	}
	// A known person or place is left to the antecedents; a pet or an
	// untyped name is who the sentence is about.
	switch c.typeOf(w) {
	case "", "entity", "pet":
		return w
	}
	return ""
}

// noteAntecedents records the people a sentence of speaker names, in the
// order named, as antecedents for the pronouns that follow.
func (c *collector) noteAntecedents(s, speaker string) {
	type at struct {
		pos int
		a   antecedent
	}
	var found []at
	now := c.msgs[speaker]
	add := func(pos int, ref, role string) {
		if ref == "" || isStopName(ref) || isPronoun(ref) {
			return
		}
		g := roleGender[canonicalRole(role)]
		if t := titleGender(ref); t != 0 {
			g = t
		}
		if g == 0 {
			g = c.genders[ref]
		}
		found = append(found, at{pos, antecedent{ref: ref, gender: g, msg: now}})
	}
	for _, m := range myRoleRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[6], s[m[6]:m[7]], s[m[4]:m[5]])
	}
	for _, m := range chainRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[6], s[m[6]:m[7]], s[m[4]:m[5]])
	}
	for _, m := range namedRoleRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[6], s[m[6]:m[7]], s[m[4]:m[5]])
	}
	for _, m := range myRoleChainRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[4], s[m[4]:m[5]], s[m[2]:m[3]])
	}
	for _, m := range isMyRoleRe.FindAllStringSubmatchIndex(s, -1) {
		add(m[2], s[m[2]:m[3]], s[m[4]:m[5]])
	}
	// "Daughter Dana studies architecture": a role word and a name open
	// the sentence, the "my" left out.
	if m := bareRoleRe.FindStringSubmatchIndex(s); m != nil {
		add(m[4], s[m[4]:m[5]], s[m[2]:m[3]])
	}
	for _, m := range pronounNameRe.FindAllStringSubmatchIndex(s, -1) {
		name := s[m[4]:m[5]]
		if isStopName(name) {
			continue
		}
		c.entity(name, "person")
		found = append(found, at{m[4], antecedent{ref: name, gender: pronounGender(s[m[2]:m[3]]), msg: now}})
	}
	for _, m := range introNameRe.FindAllStringSubmatchIndex(s, -1) {
		name := s[m[4]:m[5]]
		if isStopName(name) || isPronoun(name) {
			continue
		}
		var g byte
		if m[2] >= 0 {
			g = introGender[strings.ToLower(s[m[2]:m[3]])]
		}
		found = append(found, at{m[4], antecedent{ref: c.entity(name, "person"), gender: g, msg: now}})
	}
	for _, m := range partnerNameRe.FindAllStringSubmatchIndex(s, -1) {
		name := s[m[2]:m[3]]
		if isStopName(name) || isPronoun(name) || c.typeOf(name) != "" && c.typeOf(name) != "person" {
			continue
		}
		found = append(found, at{m[2], antecedent{ref: c.entity(name, "person"), gender: c.genders[name], msg: now}})
	}
	for _, m := range appositiveRoleRe.FindAllStringSubmatchIndex(s, -1) {
		if c.typeOf(s[m[2]:m[3]]) == "" || c.typeOf(s[m[2]:m[3]]) == "person" {
			add(m[2], s[m[2]:m[3]], s[m[4]:m[5]])
		}
	}
	for _, m := range myBareRoleRe.FindAllStringSubmatchIndex(s, -1) {
		rest := strings.TrimLeft(s[m[1]:], " ,")
		if startsUpper(rest) {
			continue // a name follows: taken above
		}
		// "my mother's 70th birthday" names her too; a relative of hers
		// named after it ("my sister's husband Tom") comes later and is
		// the nearer antecedent.
		role := strings.ToLower(s[m[4]:m[5]])
		if before := strings.ToLower(s[:m[0]]); predicativeRe.MatchString(before) {
			continue // "Felix isn't my roommate": Felix, named already
		}
		if petRoles[role] {
			continue
		}
		add(m[0], "my "+role, role)
	}
	// Known people named anywhere ("also Nomsa got a new job").
	for _, m := range capWordRe.FindAllStringIndex(s, -1) {
		name := s[m[0]:m[1]]
		if isStopName(name) || c.typeOf(name) != "person" {
			continue
		}
		g := titleGender(name)
		if g == 0 {
			g = c.genders[name]
		}
		if g == 0 {
			g = c.storedGender(name)
		}
		for _, a := range c.antes[speaker] {
			if a.ref == name && a.gender != 0 {
				g = a.gender
			}
		}
		found = append(found, at{m[0], antecedent{ref: c.entity(name, "person"), gender: g, msg: now}})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	for _, f := range found {
		list := c.antes[speaker]
		// A person named again moves to the end, keeping a known gender.
		for i, a := range list {
			if a.ref == f.a.ref {
				if f.a.gender == 0 {
					f.a.gender = a.gender
				}
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		c.antes[speaker] = append(list, f.a)
	}
	if l := c.antes[speaker]; len(l) > 6 {
		c.antes[speaker] = l[len(l)-6:]
	}
}
