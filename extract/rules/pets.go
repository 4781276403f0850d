package rules

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// Pets named after they were mentioned: "Just adopted a rescue pup!! His
// name is Waffles" → (user has_pup Waffles), so the pet's later facts name
// it as the speaker's ("user's pup Waffles is a corgi mix").

var (
	petAlt = alternation(petRoles)
	// "adopted a rescue pup", "we got a new kitten": a pet of the speaker's
	// without a name yet.
	unnamedPetRe = regexp.MustCompile(`(?i)(?:^(?:(?:just|finally|recently|also|so|and)\s+)*|\b(?:i|we)\b[^.!?]*?\s)(?:adopted|got|bought|rescued|have|found|brought\s+home|picked\s+up|took\s+in)\s+(?:a|an|our|my)\s+(?:[\p{L}-]+\s+){0,2}?(` + petAlt + `)\b`)
	// "need a name for our new kitten", "name ideas for a puppy": a pet
	// about to be named.
	petNameWantedRe = regexp.MustCompile(`(?i)\bnames?\s+(?:ideas?\s+)?for\s+(?:my\s+|our\s+|the\s+|a\s+|an\s+)?(?:new\s+)?(` + petAlt + `)\b`)
	// "his name is Waffles", "her name's Olive", "we named him Biscuit",
	// and, once a name was wanted, "went with Pelmeni", "we're calling
	// her Miso"
	// "we adopted a little kitten, Pimienta, black and white", "we have a
	// puppy now, Lotta": the name set off right after the pet.
	appositivePetNameRe = regexp.MustCompile(`^(?i:now|too|as\s+well)?\s*,\s*` + nameRe + `\s*(?:[,.!?;:]|$)`)
	petNameRe           = regexp.MustCompile(`(?i:\b(?:(?:his|her|its)\s+name(?:\s+is|'s|’s)|(?:we|i)\s+(?:named|called)\s+(?:him|her|it)|(?:went|going|decided|settled)\s+(?:with|on)|(?:we're|we\s+are|i'm|i\s+am)\s+calling\s+(?:him|her|it))\s+)` + nameRe)
)

// alternation is a regexp alternation of a set's keys, longest first so a
// longer phrase wins ("guinea pig" before "pig").
func alternation[V any](set map[string]V) string {
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, regexp.QuoteMeta(k))
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return strings.Join(names, "|")
}

// lastPet is the last unnamed pet a speaker mentioned, and in which of their
// messages.
type lastPet struct {
	role string
	msg  int
}

// petNames finds, in a sentence of speaker, a pet mentioned without a name
// and the name given to it in the same message or the next: "Just adopted
// a rescue pup!! His name is Waffles".
func (c *collector) petNames(s, speaker, speakerType string, ref time.Time) []lore.ExtractedFact {
	now := c.msgs[speaker]
	if m := unnamedPetRe.FindStringSubmatchIndex(s); m != nil {
		rest := strings.TrimSpace(s[m[1]:])
		if a := appositivePetNameRe.FindStringSubmatch(rest); a != nil && !isStopName(a[1]) {
			if f := c.relationFact(speaker, speakerType, strings.ToLower(s[m[2]:m[3]]), a[1], ref); f != nil {
				return []lore.ExtractedFact{*f}
			}
		}
		if !startsUpper(rest) && !strings.HasPrefix(strings.ToLower(rest), "named") && !strings.HasPrefix(strings.ToLower(rest), "called") {
			c.pets[speaker] = lastPet{role: strings.ToLower(s[m[2]:m[3]]), msg: now}
		}
	}
	if m := petNameWantedRe.FindStringSubmatchIndex(s); m != nil {
		c.pets[speaker] = lastPet{role: strings.ToLower(s[m[2]:m[3]]), msg: now}
	}
	if m := petNameRe.FindStringSubmatch(s); m != nil {
		if p, ok := c.pets[speaker]; ok && now-p.msg <= 1 && !isStopName(m[1]) {
			delete(c.pets, speaker)
			if f := c.relationFact(speaker, speakerType, p.role, m[1], ref); f != nil {
				return []lore.ExtractedFact{*f}
			}
		}
	}
	return nil
}

// petLossRe is a named pet said to have died: "Bamse passed away last
// month", "our cat Miso died", "Rex had to be put down".
var rolePetLossRe = regexp.MustCompile(`(?i:\b(?:the|our|my)\s+(?:old\s+|poor\s+|sweet\s+)?(` + petAlt + `)\s+(?:(?:has\s+|had\s+)?(?:sadly\s+|finally\s+)?(?:passed\s+away|passed|died)|was\s+put\s+down|had\s+to\s+be\s+put\s+down))\b`)

var petLossRe = regexp.MustCompile(nameRe + `\s+(?:(?:has\s+|had\s+)?(?:sadly\s+|finally\s+)?(?:passed\s+away|passed|died)|was\s+put\s+down|had\s+to\s+be\s+put\s+down)\b`)

// petLoss ends the speaker's relation to a pet said to have died: "Do I
// still have Bamse?" then finds the turn that said so.
func (c *collector) petLoss(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	// "the cat passed in March": the one pet of that kind the speaker has.
	for _, m := range rolePetLossRe.FindAllStringSubmatch(sentence, -1) {
		role := canonicalRole(strings.ToLower(m[1]))
		if name, ok := c.prior(subject, rolePredicate(role), ""); ok && name != "" {
			if f := c.relationFact(subject, subjectType, role, name, ref); f != nil {
				f.ValidAt, f.InvalidAt = nil, timePtr(ref)
				out = append(out, *f)
			}
		}
	}
	for _, m := range petLossRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		// "Liz's dog Bear died": a pet of someone the speaker named.
		if owner, role, ok := c.petOwner(m[1]); ok && owner != subject {
			if f := c.relationFact(owner, "person", role, m[1], ref); f != nil {
				f.ValidAt, f.InvalidAt = nil, timePtr(ref)
				out = append(out, *f)
			}
			continue
		}
		for role := range petRoles {
			name, ok := c.prior(subject, rolePredicate(role), m[1])
			if !ok || !strings.EqualFold(name, m[1]) {
				continue
			}
			if f := c.relationFact(subject, subjectType, role, name, ref); f != nil {
				f.ValidAt, f.InvalidAt = nil, timePtr(ref)
				out = append(out, *f)
			}
		}
	}
	return out
}

// petOwner finds who has a pet named name, among the facts of this
// extraction and the request's current facts.
func (c *collector) petOwner(name string) (owner, role string, ok bool) {
	key := lore.NormalizeName(name)
	check := func(subject, predicate, object string) bool {
		r, has := strings.CutPrefix(predicate, "has_")
		if !has || !petRoles[r] || lore.NormalizeName(object) != key {
			return false
		}
		owner, role, ok = subject, r, true
		return true
	}
	for i := len(c.ex.Facts) - 1; i >= 0; i-- {
		if f := c.ex.Facts[i]; f.InvalidAt == nil && check(f.Subject, f.Predicate, f.Object) {
			return
		}
	}
	for _, f := range c.candFacts {
		if f != nil && f.InvalidAt == nil && check(f.Subject, f.Predicate, f.Object) {
			return
		}
	}
	return "", "", false
}

// breeds maps a breed to the pet role it is a kind of (data/breeds.txt).
var breeds = func() map[string]string {
	m := map[string]string{}
	for _, line := range readList("breeds.txt") {
		if b, role, ok := strings.Cut(line, " = "); ok {
			m[b] = role
		}
	}
	return m
}()

var (
	breedAlt = `((?:(?:black|yellow|chocolate|golden|white|grey|gray|brown|red|rescue|mini|miniature|toy|old|little|big|senior)\s+)*(?:` + alternation(breeds) + `)(?:\s+(?:mix|cross|x))?)`
	// "Duke, my black lab", "Hana, a shiba inu", "Rosie is a beagle", "Bear
	// is my boxer"
	nameBreedRe = regexp.MustCompile(nameRe + `(?:,|\s+is)\s+(?i:(my|our|a|an|his|her|their)\s+` + breedAlt + `)\b`)
	// "Bamse, old elkhound.": a breed said after a name with nothing
	// after it, whose owner is who already has that pet.
	bareBreedRe = regexp.MustCompile(nameRe + `,\s+(?i:` + breedAlt + `)\s*(?:[.;!?]|$)`)
	// "Bran — that's our sheepdog": a name, then the breed it is.
	thatsBreedRe = regexp.MustCompile(nameRe + `\s*(?:—|–|-|,|\()\s*(?i:that's|that’s|thats|that\s+is)\s+(?i:(my|our)\s+` + breedAlt + `)\b`)
	// "run Biscuit to the groomer, he's our basset hound": the breed of
	// the pet named last before the comma.
	pronounBreedRe = regexp.MustCompile(`,\s+(?i:he|she|it)(?:'s|’s|\s+is)\s+(?i:(my|our)\s+` + breedAlt + `)\b`)
	// "my beagle Rosie", "that beagle Rosie"
	breedNameRe = regexp.MustCompile(`(?i:\b(my|our|a|an|that|the|his|her|their)\s+` + breedAlt + `)\s+` + nameRe)
	// "our dog Hana, a shiba inu": a breed after a pet named by role.
	petBreedRe = regexp.MustCompile(`(?i:\b(?:` + petAlt + `))\s+` + nameRe + `,\s+(?i:(a|an)\s+` + breedAlt + `)\b`)
	// "We adopted a rescue greyhound named Luna": a pet the speaker took
	// in, by its breed.
	// "We got a puppy, a beagle called Max" too.
	acquiredBreedRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:(?:just|finally|recently|have|have\s+just)\s+)*(?:adopted|got|bought|rescued|brought\s+home|took\s+in)\s+(?:a|an)\s+(?:(?:` + petAlt + `)\s*,\s+(?:a|an)\s+)?` + breedAlt + `\s+(?:named|called))\s+` + nameRe)
)

// breedOf returns the pet role of a breed phrase ("black lab" → dog).
func breedOf(phrase string) string {
	words := strings.Fields(strings.ToLower(phrase))
	if n := len(words); n > 1 && (words[n-1] == "mix" || words[n-1] == "cross" || words[n-1] == "x") {
		words = words[:n-1] // "kelpie x", "beagle mix"
	}
	for i := range words {
		if r, ok := breeds[strings.Join(words[i:], " ")]; ok {
			return r
		}
	}
	return ""
}

// breedFacts reads the breeds of named pets: (Duke, breed, black lab), and
// with "my" the speaker's (user, has_dog, Duke).
func (c *collector) breedFacts(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	add := func(name, det, breed string) {
		if first, last, ok := strings.Cut(name, " "); ok && englishWords[strings.ToLower(first)] {
			name = last // "Bringing Duke, my black lab"
		}
		role := breedOf(breed)
		if role == "" || isStopName(name) || isPronoun(name) || isTemporalWord(lore.NormalizeName(name)) {
			return
		}
		if t := c.typeOf(name); t != "" && t != "pet" && t != "entity" {
			return // "Max is my boxer" of a person: a sport, not a breed
		}
		det = strings.ToLower(det)
		breed = strings.ToLower(breed)
		if owned, ok := c.prior(subject, rolePredicate(role), name); ok || det == "my" || det == "our" {
			// The relation's text names the breed: "Duke is user's dog, a
			// black lab" answers "What kind of dog is Duke?".
			if f := c.relationFact(subject, subjectType, role, name, ref); f != nil && (!ok || strings.EqualFold(owned, f.Object)) {
				f.Text = factText("%s, %s %s", strings.TrimSuffix(f.Text, "."), articleFor(breed), breed)
				out = append(out, *f)
			}
		}
		pet := c.entity(name, "pet")
		out = append(out, lore.ExtractedFact{
			Subject: pet, SubjectType: "pet", Predicate: "breed", Object: breed,
			Text: factText("%s is %s %s", pet, articleFor(breed), breed), ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	for _, m := range nameBreedRe.FindAllStringSubmatch(sentence, -1) {
		add(m[1], m[2], m[3])
	}
	for _, m := range bareBreedRe.FindAllStringSubmatch(sentence, -1) {
		add(m[1], "", m[2])
	}
	for _, loc := range pronounBreedRe.FindAllStringSubmatchIndex(sentence, -1) {
		before := sentence[max(0, loc[0]-60):loc[0]]
		names := capWordRe.FindAllString(before, -1) // coref.go's capitalised word
		if len(names) > 0 {
			add(names[len(names)-1], sentence[loc[2]:loc[3]], sentence[loc[4]:loc[5]])
		}
	}
	for _, m := range thatsBreedRe.FindAllStringSubmatch(sentence, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) {
			add(m[1], m[2], m[3])
		}
	}
	for _, m := range breedNameRe.FindAllStringSubmatch(sentence, -1) {
		add(m[3], m[1], m[2])
	}
	for _, m := range petBreedRe.FindAllStringSubmatch(sentence, -1) {
		add(m[1], m[2], m[3])
	}
	for _, m := range acquiredBreedRe.FindAllStringSubmatch(sentence, -1) {
		add(m[2], "our", m[1])
	}
	return out
}

// articleFor is "a" or "an" for a word.
func articleFor(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an"
	}
	return "a"
}
