package rules

import (
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// Changes a relational question needs: what someone drives, which editor
// and phone they use, what they study, what they do instead of what they
// stopped. Kinds of things come from data/things.txt (car makes, editors,
// phone lines).

var (
	thingKinds = readThings()
	carAlt     = thingAlt("car")
	editorAlt  = thingAlt("editor")
	phoneAlt   = thingAlt("phone")
	// A phone line and its model words: "iPhone 14 Pro", "galaxy s23",
	// "Tecno Camon 19", "Redmi Note 12". Capitalised words count only
	// before a number, so "an iPhone Last week" stops at "iPhone".
	phoneName = `((?i:` + phoneAlt + `)\b(?:\s+(?:\p{L}*\d[\p{L}\d]*|(?i:pro|max|ultra|plus|mini|lite|fe|se|note|fold|flip|edge)\b|(?-i:\p{Lu}\p{L}+)\s+\p{L}*\d[\p{L}\d]*)){0,3})`
	// The article goes, the words that describe it stay: "my old Nokia".
	phoneAdj    = `(?i:(?:a|an|the|my)\s+)?((?i:(?:new|used|refurbished|second-hand|secondhand|old|cheap|brand\s+new)\s+)*)`
	phoneOnlyRe = regexp.MustCompile(phoneName)
	// "my pixel died, replaced it w a nokia x30"
	phoneSwapRe = regexp.MustCompile(`(?i:\breplaced\s+(?:it|that|mine|(?:the|my)\s+(?:old\s+)?phone)\s+(?:with|w/?)\s+)` + phoneAdj + phoneName)
	// "I got a galaxy s23", "switched to a Pixel 8", "I use an iPhone 12"
	phoneRe = regexp.MustCompile(subj + `(?:have|has|got|get|bought|use|uses|using|own|owns|ordered|(?:switched|changed|upgraded|moved)\s+to|went\s+(?:with|for)|picked\s+up)\s+` + phoneAdj + phoneName)
	// "my phone is a Tecno Camon 19", "my phone's an iPhone 12"
	phoneIsRe = regexp.MustCompile(`(?i:\bmy\s+(?:new\s+|current\s+)?(?:phone|mobile|cell\s*phone|smartphone)(?:'s|’s|\s+is)\s+)` + phoneAdj + phoneName)
	// "My new iPhone 13 (refurbished) is the only gift I'm getting".
	phoneMyNewRe = regexp.MustCompile(`(?i:\bmy\s+(new|brand\s+new|refurbished)\s+)` + phoneName)
	// "Emeka gave me an iPhone 14": the speaker's phone, whoever paid.
	phoneGiftRe = regexp.MustCompile(`(?i:\b(?:gave|got|bought|handed)\s+me\s+(?:his\s+|her\s+|their\s+)?)` + phoneAdj + phoneName)
	// "my pixel 6 finally died", "my phone got stolen": the phone in use
	// ends.
	phoneGoneRe = regexp.MustCompile(`(?i:\bmy\s+(?:old\s+)?)(?:` + phoneName + `|(?i:phone|mobile|cell\s*phone|smartphone))(?i:\s+(?:finally\s+|just\s+|completely\s+)?(?:died|is\s+dead|broke|got\s+stolen|was\s+stolen|stopped\s+working|gave\s+up))\b`)

	// "I drive a 2012 Honda Civic"
	driveRe = regexp.MustCompile(subj + `(?:drive|drives|driving|own|owns|have|has|got|bought|leased|picked\s+up|(?:switched|changed|upgraded|moved)\s+to)\s+(?:a\s+|an\s+|the\s+|my\s+)?(?:new\s+|used\s+|second-hand\s+|second\s+hand\s+|secondhand\s+|old\s+|\d{4}\s+)*(?:(?:car|ride|vehicle)\s*[,:–—-]?\s+(?:a\s+|an\s+)?)?(?:(?:blue|red|black|white|silver|grey|gray|green|yellow|orange|brown|used|new|second-hand)\s+)*((?i:` + carAlt + `)\b(?-i:\s+[\p{Lu}\d][\p{L}\d-]*){0,3})`)
	// "the old Fiesta finally died", "our Golf got written off": the car
	// the speaker drove is gone.
	// The car is a make or a capitalised name; it ends only a car the
	// speaker is known to drive.
	carGoneRe = regexp.MustCompile(`(?i:\b(?:my|our|the)\s+(?:old\s+|trusty\s+|beloved\s+)?)((?i:` + carAlt + `)\b(?-i:\s+[\p{Lu}\d][\p{L}\d-]*){0,2}|\p{Lu}[\p{L}\d-]+(?:\s+[\p{Lu}\d][\p{L}\d-]*){0,2})(?i:\s+(?:finally\s+|just\s+|completely\s+)?(?:died|is\s+dead|got\s+written\s+off|was\s+written\s+off|got\s+totall?ed|was\s+totall?ed|got\s+stolen|was\s+stolen|gave\s+up))\b`)
	// "got a 2016 silverado", "we drive a 2009 Corolla": a model after its
	// year is a vehicle, whatever its make.
	yearCarRe = regexp.MustCompile(subj + `(?:drive|drives|driving|got|bought|picked\s+up|have|own|leased)\s+(?:a|an|my|our)\s+(?:used\s+|new\s+|second-hand\s+)?((?:19[5-9]\d|20[0-4]\d)\s+[\p{L}][\p{L}\d-]*(?-i:\s+[\p{Lu}\d][\p{L}\d-]*)?)(\s+(?:of|for|in|with)\b)?`)
	// "my new car is a Skoda Octavia", "our car's a Kia"
	// "my truck is an f-150": a model with a number is a vehicle too.
	carIsRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+(?:new\s+|current\s+)?(?:car|truck|pickup|van|suv)(?:'s|’s|\s+is)\s+(?:now\s+)?(?:a\s+|an\s+)?(?:(?:blue|red|black|white|silver|grey|gray|green|yellow|orange|brown|used|new|second-hand)\s+)*)((?i:` + carAlt + `)\b(?-i:\s+[\p{Lu}\d][\p{L}\d-]*){0,3}|\p{L}+-?\d+[\p{L}\d]*(?:\s+\d+)?)`)
	// "I drive a Civic" (no make): the verb says it.
	driveAnyRe = regexp.MustCompile(subj + `(?:drive|drives|driving)\s+(?:a\s+|an\s+|the\s+|my\s+)?(?-i:((?:\d{4}\s+)?\p{Lu}[\p{L}\d-]*(?:\s+[\p{Lu}\d][\p{L}\d-]*){0,3}))`)
	// A left-out "I": "Got a used Tesla Model 3".
	// "I code in Vim", "I use Emacs", "I write everything in VS Code"
	editorRe = regexp.MustCompile(subj + `(?:code|coding|program|programming|write\s+(?:code|everything)|use|using|work|working|switched|moved|live|living)\s+(?:in|with|to|on)?\s*((?i:` + editorAlt + `))(?:\s|$|[.,!;])`)
	// "studying mechanical engineering", "I'm majoring in history"
	studyRe = regexp.MustCompile(subj + `(?:am\s+|are\s+)?(?:studying|majoring\s+in|major\s+in|study|doing\s+(?:a|my)\s+(?:degree|major|masters|master's|phd|bachelor's)\s+in)\s+([\p{L}][\p{L}\s-]*)`)
	// orgRunRe is a school or employer said with capitals: "TU Delft",
	// "University of Ghana".
	orgRunRe = `(?-i:(\p{Lu}[\p{L}.&'’-]*(?:\s+(?:of\s+|de\s+|for\s+|and\s+)?\p{Lu}[\p{L}.&'’-]*)*))`
	// "studying law at Leeds", "a masters in data science at Edinburgh":
	// where, read after the field.
	studyAtRe = regexp.MustCompile(`^[^,;.!?]{0,60}?\s(?i:at)\s+(?:(?i:the)\s+)?` + orgRunRe)
	// "in my second year of a law degree at UCT", "a nursing diploma at
	// Humber": the field before the degree, and where.
	degreeAtRe = regexp.MustCompile(subj + `(?:am\s+|are\s+)?(?:doing|finishing|starting|started|in\s+(?:my|the|our)\s+[\p{L}-]+\s+year\s+of)\s+(?:a|an|my|the|our)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?i:degree|diploma|course|programme|program)\s+at\s+(?:(?i:the)\s+)?` + orgRunRe)
	// "switched my major to software engineering", "changed my major from
	// history to law"
	majorRe = regexp.MustCompile(subj + `(?:switched|changed|swapped)\s+(?:my\s+)?major\s+(?:from\s+([\p{L}\s-]+?)\s+)?to\s+([\p{L}][\p{L}\s-]*)`)
	// "swimming instead", "I'm doing yoga instead", "switched to cycling"
	insteadRe = regexp.MustCompile(`(?i)^(?:(?:i\s+am|i'm|i)\s+)?(?:now\s+)?(?:doing\s+|going\s+|took\s+up\s+|taking\s+up\s+|switched\s+to\s+)?(\p{L}+ing)\s+instead\b`)
)

func readThings() map[string]string {
	m := map[string]string{}
	for _, line := range readList("things.txt") {
		i := strings.LastIndex(line, " ")
		if i > 0 {
			m[line[:i]] = line[i+1:]
		}
	}
	return m
}

// thingAlt is a regexp alternation of the names of one kind, longest first.
func thingAlt(kind string) string {
	var names []string
	for n, k := range thingKinds {
		if k == kind {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	for i, n := range names {
		names[i] = strings.ReplaceAll(regexp.QuoteMeta(n), " ", `\s+`)
	}
	return strings.Join(names, "|")
}

// kindOf is "car" or "editor" when s names one ("VS Code", "Honda Civic").
func kindOf(s string) string {
	l := lore.NormalizeName(s)
	if k := thingKinds[l]; k != "" {
		return k
	}
	if f := strings.Fields(l); len(f) > 0 {
		if k := thingKinds[f[0]]; k == "car" || k == "phone" {
			return k
		}
		if k := thingKinds[f[len(f)-1]]; k == "field" {
			return k
		}
	}
	return ""
}

// changeFacts finds, in one first-person clause, the car the speaker
// drives, the editor they use, what they study and a new activity taken up
// instead of an old one.
func (c *collector) changeFacts(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	cur := func(pred, said, obj string) {
		obj = strings.TrimSpace(strings.TrimRight(obj, ".,!?;: "))
		if obj == "" {
			return
		}
		out = append(out, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: pred, Object: obj,
			Text: factText("%s %s %s", subject, said, obj), ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	if m := carGoneRe.FindStringSubmatch(clause); m != nil {
		if old, ok := c.prior(subject, "drives", strings.TrimSpace(m[1])); ok {
			out = append(out, ended(subject, subjectType, "drives", "drives", old, false, "", ref))
		}
	}
	if m := driveRe.FindStringSubmatch(clause); m != nil {
		cur("drives", "drives a", m[1])
	} else if m := driveRe.FindStringSubmatch(sharedSubject(clause)); m != nil {
		cur("drives", "drives a", m[1])
	} else if m := driveRe.FindStringSubmatch(withSubject(clause)); m != nil {
		cur("drives", "drives a", m[1])
	} else if m := driveAnyRe.FindStringSubmatch(clause); m != nil && !isStopName(m[1]) {
		cur("drives", "drives a", m[1])
	} else if m := carIsRe.FindStringSubmatch(clause); m != nil {
		cur("drives", "drives a", m[1])
	} else if m := yearCarRe.FindStringSubmatch(clause); m != nil && m[2] == "" {
		// "a 2019 bottle of wine" is no vehicle.
		cur("drives", "drives a", m[1])
	}
	if m := editorRe.FindStringSubmatch(clause); m != nil {
		cur("uses_editor", "uses the editor", m[1])
	}
	out = append(out, c.phoneFacts(subject, subjectType, clause, ref)...)
	if m := majorRe.FindStringSubmatch(clause); m != nil {
		if from := cleanEnd(m[1]); from != "" {
			out = append(out, ended(subject, subjectType, "major", "studies", c.priorObject(subject, "major", from), false, "", ref))
		} else if old := c.priorObject(subject, "major", ""); old != "" {
			out = append(out, ended(subject, subjectType, "major", "studies", old, false, "", ref))
		}
		cur("major", "studies", cleanEnd(m[2]))
	} else if m := studyRe.FindStringSubmatch(clause); m != nil {
		field := cleanEnd(m[1])
		for _, b := range []string{" at ", " in ", " for ", " with ", " this ", " next ", " last ", " now"} {
			if i := strings.Index(strings.ToLower(field)+" ", b); i >= 0 {
				field = field[:min(i, len(field))]
			}
		}
		if w := strings.Fields(strings.ToLower(field)); len(w) > 0 && len(w) <= 4 && !studyNot[w[0]] {
			cur("major", "studies", strings.ToLower(field))
			loc := studyRe.FindStringSubmatchIndex(clause)
			if at := studyAtRe.FindStringSubmatch(clause[loc[2]:]); at != nil && !isTemporalWord(lore.NormalizeName(at[1])) {
				out = append(out, c.studiesAt(subject, subjectType, at[1], ref))
			}
		}
	} else if m := degreeAtRe.FindStringSubmatch(clause); m != nil && !isTemporalWord(lore.NormalizeName(m[2])) {
		if field := studentField(m[1] + " student"); field != "" && !studyNot[strings.Fields(field)[0]] {
			cur("major", "studies", field)
		}
		out = append(out, c.studiesAt(subject, subjectType, m[2], ref))
	}
	if m := insteadRe.FindStringSubmatch(strings.TrimSpace(clause)); m != nil {
		g := strings.ToLower(m[1])
		if !studyNot[g] {
			cur("does", "now does", g+" instead")
			out[len(out)-1].Object = g
		}
	}
	return out
}

// studiesAt states where someone studies, the school an entity.
func (c *collector) studiesAt(subject, subjectType, school string, ref time.Time) lore.ExtractedFact {
	org := c.entity(c.fullName(strings.TrimRight(strings.TrimSpace(school), ".")), "organization")
	return lore.ExtractedFact{
		Subject: subject, SubjectType: subjectType, Predicate: "studies_at", Object: org, ObjectIsEntity: true, ObjectType: "organization",
		Text: factText("%s studies at %s", subject, org), ValidAt: timePtr(ref), Confidence: 0.75,
	}
}

// phoneFacts finds the phone the speaker uses ("I got a galaxy s23", "my
// phone is a Tecno Camon 19", "Emeka gave me an iPhone 14") and the one
// that stopped ("my pixel 6 finally died").
func (c *collector) phoneFacts(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	if m := phoneGoneRe.FindStringSubmatch(clause); m != nil {
		if old := c.priorObject(subject, "uses_phone", strings.TrimSpace(m[1])); old != "" {
			out = append(out, ended(subject, subjectType, "uses_phone", "uses the phone", old, false, "", ref))
		}
	}
	for _, re := range []*regexp.Regexp{phoneSwapRe, phoneRe, phoneIsRe, phoneGiftRe, phoneMyNewRe} {
		if m := re.FindStringSubmatch(clause); m != nil && !commonWordPhone(m[2]) {
			out = append(out, phoneFact(subject, subjectType, m[1], m[2], ref))
			break
		}
	}
	return out
}

// commonWordPhone reports a phone line named without a model whose name is
// also an everyday word ("a pixel art class", "poco a poco").
func commonWordPhone(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "pixel", "galaxy", "poco", "vivo", "itel", "nothing":
		return true
	}
	return false
}

// phoneFact states the phone someone uses, described as the speaker did
// ("an old Nokia").
func phoneFact(subject, subjectType, described, phone string, ref time.Time) lore.ExtractedFact {
	phone = strings.TrimSpace(strings.TrimRight(phone, ".,!?;: "))
	return lore.ExtractedFact{
		Subject: subject, SubjectType: subjectType, Predicate: "uses_phone", Object: phone,
		Text: factText("%s's phone is %s", subject, withArticle(strings.TrimSpace(described+" "+phone))), ValidAt: timePtr(ref), Confidence: 0.75,
	}
}

// studyNot are words after "studying" that are not a field of study.
var studyNot = listSet(strings.Fields(`for with to at in the a an hard all late every up together abroad remotely online something it this that them nothing anything everything doing nothing going`))

// priorObject returns the object of a current fact of subject with
// predicate (from the request's candidates or this extraction) that
// contains the word(s) of hint, or the only one when hint is empty; or
// hint itself.
func (c *collector) priorObject(subject, predicate, hint string) string {
	if o, ok := c.prior(subject, predicate, hint); ok {
		return o
	}
	return hint
}

// prior is priorObject that says whether a fact was found.
func (c *collector) prior(subject, predicate, hint string) (string, bool) {
	// "St Mary's" ends the employer stored as "St Mary".
	h := noPossessive(lore.NormalizeName(hint))
	match := func(obj string) bool {
		o := noPossessive(lore.NormalizeName(obj))
		return h == "" || o == h || strings.Contains(" "+o+" ", " "+h+" ")
	}
	return c.lastCurrent(subject, predicate, match)
}

// noPossessive drops a trailing possessive "'s" from a normalised name.
func noPossessive(name string) string {
	for _, suf := range []string{"'s", "’s"} {
		if t, ok := strings.CutSuffix(name, suf); ok {
			return t
		}
	}
	return name
}

// lastCurrent is the latest current object of subject's predicate, in this
// extraction or among the stored facts, that match accepts.
func (c *collector) lastCurrent(subject, predicate string, match func(string) bool) (string, bool) {
	for i := len(c.ex.Facts) - 1; i >= 0; i-- {
		f := c.ex.Facts[i]
		if f.Subject == subject && f.Predicate == predicate && f.InvalidAt == nil && match(f.Object) {
			return f.Object, true
		}
	}
	for _, f := range c.candFacts {
		if f.Subject == subject && f.Predicate == predicate && f.InvalidAt == nil && match(f.Object) {
			return f.Object, true
		}
	}
	return "", false
}

// andVerbRe is a verb phrase joined by "and" that shares the clause's
// subject: "we got rid of the Avensis and switched to a Skoda".
var andVerbRe = regexp.MustCompile(`(?i)^(?:i|we)\b.*?\s+and\s+(?:then\s+)?(\p{Ll}+ed\b.*)`)

// withSubject returns a clause that opens with a verb whose "I" was left
// out ("insurance paid out, bought a Ford Ranger") with the "I" put back,
// or "".
func withSubject(clause string) string {
	if clause = strings.TrimSpace(clause); !leftOutSubject(clause) {
		return ""
	}
	return "I " + clause
}

// sharedSubject returns the second verb phrase of a first-person clause
// with its subject restored ("I switched to a Skoda"), or "".
func sharedSubject(clause string) string {
	m := andVerbRe.FindStringSubmatch(strings.TrimSpace(clause))
	if m == nil {
		return ""
	}
	return "I " + m[1]
}

var (
	// "I teach year 4 at Whakarewa School here in Rotorua": the speaker
	// lives where they say "here" is.
	hereInRe = regexp.MustCompile(`(?i)\b(?:i|we)\b[^.!?;]*?\bhere\s+in\s+(?:the\s+)?(?-i:(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?))`)
	// "we moved! we're in Stavanger now": a home said to hold now, in a
	// message that speaks of a move (without one, "I'm in London now" may
	// be a trip).
	inNowRe     = regexp.MustCompile(`(?i)\b(?:i\s+am|i'm|i’m|im|we\s+are|we're|we’re)\s+(?:now\s+)?(?:living\s+)?in\s+(?-i:(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?))\s+now\b`)
	moveWordsRe = regexp.MustCompile(`(?i)\b(?:moved|relocated|new\s+(?:flat|place|house|apartment|home))\b`)
	// A visit is not where someone lives.
	visitWordsRe = regexp.MustCompile(`(?i)\b(?:visit|visiting|trip|holiday|holidays|vacation|conference|for\s+the\s+(?:week|weekend)|for\s+a\s+(?:few\s+)?(?:days|weeks?)|staying|hotel|layover|passing\s+through)\b`)
)

// hereInFacts states where the speaker lives from "here in <place>".
func (c *collector) hereInFacts(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	m := hereInRe.FindStringSubmatch(sentence)
	if m == nil && moveWordsRe.MatchString(c.message) {
		m = inNowRe.FindStringSubmatch(sentence)
	}
	if m == nil || visitWordsRe.MatchString(sentence) || isTemporalWord(strings.ToLower(m[1])) || isStopName(m[1]) {
		return nil
	}
	if _, ok := c.prior(subject, "lives_in", m[1]); ok {
		return nil // said before; nothing new
	}
	place := c.entity(m[1], "place")
	return []lore.ExtractedFact{{
		Subject: subject, SubjectType: subjectType, Predicate: "lives_in", Object: place, ObjectIsEntity: true, ObjectType: "place",
		Text: factText("%s lives in %s", subject, place), ValidAt: timePtr(ref), Confidence: 0.7,
	}}
}
