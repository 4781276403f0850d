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
	petAlt = func() string {
		var names []string
		for p := range petRoles {
			names = append(names, regexp.QuoteMeta(p))
		}
		sort.Slice(names, func(i, j int) bool {
			if len(names[i]) != len(names[j]) {
				return len(names[i]) > len(names[j])
			}
			return names[i] < names[j]
		})
		return strings.Join(names, "|")
	}()
	// "adopted a rescue pup", "we got a new kitten": a pet of the speaker's
	// without a name yet.
	unnamedPetRe = regexp.MustCompile(`(?i)(?:^(?:(?:just|finally|recently|also|so|and)\s+)*|\b(?:i|we)\b[^.!?]*?\s)(?:adopted|got|bought|rescued|have|found|brought\s+home|picked\s+up|took\s+in)\s+(?:a|an|our|my)\s+(?:[\p{L}-]+\s+){0,2}?(` + petAlt + `)\b`)
	// "need a name for our new kitten", "name ideas for a puppy": a pet
	// about to be named.
	petNameWantedRe = regexp.MustCompile(`(?i)\bnames?\s+(?:ideas?\s+)?for\s+(?:my\s+|our\s+|the\s+|a\s+|an\s+)?(?:new\s+)?(` + petAlt + `)\b`)
	// "his name is Waffles", "her name's Olive", "we named him Biscuit",
	// and, once a name was wanted, "went with Pelmeni", "we're calling
	// her Miso"
	petNameRe = regexp.MustCompile(`(?i:\b(?:(?:his|her|its)\s+name(?:\s+is|'s|’s)|(?:we|i)\s+(?:named|called)\s+(?:him|her|it)|(?:went|going|decided|settled)\s+(?:with|on)|(?:we're|we\s+are|i'm|i\s+am)\s+calling\s+(?:him|her|it))\s+)` + nameRe + `\b`)
)

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
var petLossRe = regexp.MustCompile(nameRe + `\s+(?:(?:has\s+|had\s+)?(?:sadly\s+|finally\s+)?(?:passed\s+away|passed|died)|was\s+put\s+down|had\s+to\s+be\s+put\s+down)\b`)

// petLoss ends the speaker's relation to a pet said to have died: "Do I
// still have Bamse?" then finds the turn that said so.
func (c *collector) petLoss(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	for _, m := range petLossRe.FindAllStringSubmatch(sentence, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		for role := range petRoles {
			name, ok := c.prior(subject, "has_"+role, m[1])
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
