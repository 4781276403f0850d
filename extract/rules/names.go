package rules

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// People texting write names in lower case: "my cousin emeka", "my babe
// tolu", "moved out of surulere, now in ikeja". The name patterns need a
// capital, so such a word is capitalized before they read the sentence when
// it follows a role word or a place preposition and is not an English word
// (data/english_words.txt, data/chat_words.txt), or when it is the name of
// someone or somewhere already known. Names that are also words ("will",
// "rose") stay lower case.
var (
	englishWords    = listSet(readList("english_words.txt"))
	chatWords       = listSet(readList("chat_words.txt"))
	lowerRoleNameRe = regexp.MustCompile(`(?i:(?:\b(?:my|our|his|her|their)|\p{L}['’]s)\s+` + roleAdj + `(?:` + roleAlt + `))\s+(\p{Ll}[\p{Ll}-]*)\b`)
	// "gf yui works at a bookstore": a bare role opening a sentence, as
	// in notes and texts.
	lowerBareRoleNameRe = regexp.MustCompile(`^\s*(?:[-*•]\s*)?(?i:` + roleAdj + `(?:` + roleAlt + `))\s+(\p{Ll}[\p{Ll}-]*)\s+\p{Ll}`)
	lowerPlaceRe        = regexp.MustCompile(`(?i:\b(?:in|to|from|out\s+of|near|at|joined))\s+(\p{Ll}[\p{Ll}-]*)\b`)
	lowerWordRe         = regexp.MustCompile(`\p{Ll}[\p{Ll}-]*`)
	// "sneha is coming from bengaluru": a lower-case visitor's name.
	lowerVisitorRe = regexp.MustCompile(`\b(\p{Ll}[\p{Ll}-]*)\s+(?:is|was|'s|’s)\s+(?:visiting|coming|flying\s+in|driving\s+up|driving\s+down)\s+(?:(?:us|me|here|over|down|up)\s+)?from\b`)
	// "my wife crystal says": a given name that is also a word
	// (data/word_names.txt), right before a verb.
	wordNames           = listSet(readList("word_names.txt"))
	lowerRoleWordNameRe = regexp.MustCompile(`(?i:(?:\b(?:my|our|his|her|their)|\p{L}['’]s)\s+` + roleAdj + `(?:` + roleAlt + `))\s+(\p{Ll}[\p{Ll}-]*)\s+(?i:says|said|is|was|has|had|works|worked|lives|lived|just|thinks|wants|keeps|got|gets|loves|hates|does|did|and\s+i)\b`)
	// "euans girlfriend shona": a possessive texted without its apostrophe,
	// before a role word.
	bareOwnerRe = regexp.MustCompile(`\b(\p{L}+)s\s+(?i:` + roleAdj + `(?:` + roleAlt + `))\b`)
)

// nameLike reports whether a lower-case word can only be a name.
func nameLike(w string) bool {
	return utf8.RuneCountInString(w) >= 3 && !englishWords[w] && !chatWords[w] &&
		!isTemporalWord(strings.TrimSuffix(w, "s")) && !slices.Contains(roleWords, w) && !strings.Contains(w, "--")
}

// capitalizeNames returns s with its lower-case names capitalized. The
// names found after a role word or a preposition are remembered for the
// rest of the batch ("emeka stayed in the old place").
func (c *collector) capitalizeNames(s string) string {
	s = bareOwnerRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := bareOwnerRe.FindStringSubmatchIndex(m)
		owner := m[sub[2]:sub[3]]
		lower := strings.ToLower(owner)
		if !c.lowerNames[lower] && !c.knownName(lower) || englishWords[lower+"s"] {
			return m
		}
		return capitalize(owner) + "'s" + m[sub[3]+1:]
	})
	for _, m := range lowerRoleWordNameRe.FindAllStringSubmatch(s, -1) {
		if wordNames[m[1]] {
			c.lowerNames[m[1]] = true
		}
	}
	for _, re := range []*regexp.Regexp{lowerRoleNameRe, lowerBareRoleNameRe, lowerPlaceRe, lowerVisitorRe} {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			if nameLike(m[1]) {
				c.lowerNames[m[1]] = true
			}
		}
	}
	return replaceWords(s, func(w string) string {
		if c.lowerNames[w] || (nameLike(w) && c.knownName(w)) {
			return capitalize(w)
		}
		return w
	})
}

// knownName reports whether w is the one-word name of a person, pet or
// place of this extraction or the request.
func (c *collector) knownName(w string) bool {
	switch c.typeOf(w) {
	case "person", "pet", "place":
		return true
	}
	return false
}

// replaceWords applies f to each lower-case word of s that stands alone (not
// part of a longer token such as "e-mail2" or "x_y").
func replaceWords(s string, f func(string) string) string {
	locs := lowerWordRe.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		if l[0] > 0 {
			if r, _ := utf8.DecodeLastRuneInString(s[:l[0]]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
				continue
			}
		}
		if l[1] < len(s) {
			if r, _ := utf8.DecodeRuneInString(s[l[1]:]); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
				continue
			}
		}
		b.WriteString(s[last:l[0]])
		b.WriteString(f(s[l[0]:l[1]]))
		last = l[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
