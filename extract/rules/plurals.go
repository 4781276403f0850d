package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// People and pets named as a list after a plural role: "my kids Mia and
// Leo", "we have two kids, Mia who is 7 and Leo who is 4", "I have three
// cats: Tom, Luna and Pip". Each name holds the role.

// pluralRoles maps the plural of each role word to the role ("kids" →
// "kid", "children" → "child", "puppies" → "puppy").
var pluralRoles = func() map[string]string {
	out := map[string]string{}
	for _, r := range roleWords {
		switch {
		case strings.HasSuffix(r, "child"):
			out[r+"ren"] = r
		case strings.HasSuffix(r, "y") && !strings.HasSuffix(r, "ey") && !strings.HasSuffix(r, "ay") && !strings.HasSuffix(r, "oy"):
			out[r[:len(r)-1]+"ies"] = r
		case strings.HasSuffix(r, "s") || strings.HasSuffix(r, "sh") || strings.HasSuffix(r, "ch") || strings.HasSuffix(r, "x"):
			out[r+"es"] = r
		case strings.HasSuffix(r, "-in-law"):
			out[strings.TrimSuffix(r, "-in-law")+"s-in-law"] = r
		default:
			out[r+"s"] = r
		}
	}
	return out
}()

var (
	pluralRoleAlt = "(" + alternation(pluralRoles) + ")"
	// listItem is one name of the list, with an age said after it ("Mia
	// who is 7", "Leo (4)").
	listItem = `\p{Lu}[\p{L}-]+(?:\s+(?:who\s+is|who's|is|aged)\s+\d{1,2}|\s*\(\d{1,2}\))?`
	nameList = `(` + listItem + `(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)` + listItem + `)+)`
	count    = `(?:(?:two|three|four|five|six|2|3|4|5|6)\s+)?`
	// "my kids Mia and Leo", "our two daughters, Ana and Sofia", "my
	// parents are Raj and Meena"
	myPluralRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+` + count + roleAdj + pluralRoleAlt + `)(?:\s*[,:]\s*|\s+(?i:are|named|called)\s+|\s+)` + nameList)
	// "we have two kids, Mia and Leo", "I have three cats: Tom, Luna and Pip"
	havePluralRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:have|have\s+got|got)\s+` + count + roleAdj + pluralRoleAlt + `)\s*[,:(–—-]\s*` + nameList)
	listNameRe   = regexp.MustCompile(`\p{Lu}[\p{L}-]+`)
)

// pluralRelations states the role of each name listed after a plural role
// of the speaker's.
func (c *collector) pluralRelations(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	for _, re := range []*regexp.Regexp{myPluralRe, havePluralRe} {
		for _, m := range re.FindAllStringSubmatch(sentence, -1) {
			if unasserted(sentence, m[0]) {
				continue
			}
			role := pluralRoles[strings.ToLower(m[1])]
			for _, name := range listNameRe.FindAllString(m[2], -1) {
				if f := c.relationFact(subject, subjectType, role, name, ref); f != nil {
					out = append(out, *f)
				}
			}
		}
	}
	return out
}
