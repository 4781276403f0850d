package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/temporal"
)

// The subject of an ending: the speaker alone or with someone ("Sam and I").
const endSubj = `(?i:\b(?:(?:\p{Lu}[\p{L}-]+\s+and\s+)?i|we)\s+(?:have\s+|had\s+|just\s+|finally\s+|recently\s+|officially\s+|already\s+|actually\s+|also\s+)*)`

var (
	endingAlt = func() string {
		alts := make([]string, len(endings))
		for i, e := range endings {
			alts[i] = strings.ReplaceAll(regexp.QuoteMeta(e.verb), " ", `\s+`)
		}
		return strings.Join(alts, "|")
	}()
	// "I quit Shopify", "I stopped eating meat", "we sold the boat"
	endVerbRe = regexp.MustCompile(endSubj + `(?i:(` + endingAlt + `))\s+(.+)`)
	// "I no longer eat meat", "I don't live in Berlin anymore", "I used to
	// play the piano"
	noLongerRe = regexp.MustCompile(endSubj + `(?i:(?:am\s+|are\s+)?no\s+longer|(?:do\s+not|don't|don’t)(?:\s+really)?)\s+(?i:(\p{L}+))\s+(.+)`)
	usedToRe   = regexp.MustCompile(endSubj + `(?i:used\s+to)\s+(?i:(\p{L}+))\s+(.+)`)
	anymoreRe  = regexp.MustCompile(`(?i)\b(?:any\s?more|these\s+days)\b`)
	// "I'm not vegan anymore"
	notAnymoreRe = regexp.MustCompile(endSubj + `(?i:am\s+not|'m\s+not|am\s+no\s+longer)\s+(?:a\s+|an\s+)?(.+?)\s+(?i:any\s?more)\b`)
	// notDoingRe is the verb of "not working at", "not living in": the
	// preposition after it says what ended.
	notDoingRe = regexp.MustCompile(`^(?i:working|employed|based|living|staying)\s+((?i:at|for|with|in))\s+`)
	// "Felix isn't my roommate anymore", "Dana is no longer my boss"
	notMyRoleRe = regexp.MustCompile(nameRe + `\s+(?i:(?:is\s+not|isn't|isn’t)\s+(?:my|our)\s+(` + roleAlt + `)\s+any\s?more|is\s+no\s+longer\s+(?:my|our)\s+(` + roleAlt + `))\b`)
	// "Chloe and I broke up", "Sara and I are no longer together"
	brokeUpRe = regexp.MustCompile(`\b(\p{Lu}[\p{L}-]+)\s+and\s+(?:I|i)\s+(?:just\s+|finally\s+|officially\s+)?(?:broke\s+up|split\s+up|split(?:\s*[.,;!]|\s+(?:in|last|this|after|over|recently|a\s+few|two|three)\b)|separated|divorced|got\s+divorced|called\s+it\s+off|are\s+(?:no\s+longer|not)\s+together(?:\s+any\s?more)?|are\s+done)\b`)
	// "my girlfriend and I split up", "I'm single again": the partner the
	// speaker has by role (or is dating) is no longer.
	roleBrokeUpRe  = regexp.MustCompile(`(?i:\b(?:my|our)\s+(` + strings.Join(partnerRoles, "|") + `)\s+and\s+i\s+(?:just\s+|finally\s+|officially\s+)?(?:broke\s+up|split\s+up|split(?:\s*[.,;!]|\s+(?:in|last|this|after|over|recently|a\s+few|two|three)\b)|separated|divorced|got\s+divorced|called\s+it\s+off|are\s+(?:no\s+longer|not)\s+together))\b`)
	outOfWorkRe    = regexp.MustCompile(`(?i:\b(?:(?:i\s+am|i'm|im|i’m)\s+(?:now\s+|officially\s+|finally\s+)?(?:retired|unemployed|out\s+of\s+work|between\s+jobs)|i\s+(?:just\s+)?(?:got|was|have\s+been|'ve\s+been)\s+(?:laid\s+off|made\s+redundant|let\s+go)|i\s+(?:just\s+)?lost\s+my\s+job))\b`)
	roleMovedOutRe = regexp.MustCompile(`(?i:\b(?:my|our)\s+(?:old\s+)?(roommate|room-mate|flatmate|flat-mate|housemate|house-mate|lodger|tenant)\s+(?:just\s+|finally\s+|has\s+)?moved\s+out)\b`)
	singleAgainRe  = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|im|i’m)\s+(?:officially\s+|now\s+)?single\s+(?:again|now)\b)`)
	// "last day at Trellis was Friday", "my last shift at the juice bar is
	// Sunday": the employer ends.
	// Said without "my" only at the start of a sentence or list item
	// ("Sam's last day at Trellis" is Sam's).
	lastDayRe = regexp.MustCompile(`(?:^\s*(?:[-*•]\s*|\d+[.)]\s*)?|(?i:\b(?:my|our)\s+))(?i:last\s+(?:day|shift|week)\s+(?:at|with)\s+)(.+?)(?i:\s+(?:was|is|will\s+be)\b)`)
	// "moved from Ottawa to Toronto", "switched from VS Code to Neovim",
	// "we moved out of Madrid to Alcalá"
	fromToRe = regexp.MustCompile(endSubj + `(?i:(moved|relocated|switched|changed|went|upgraded))\s+(?:back\s+)?(?i:from|out\s+of|away\s+from)\s+(.+?)\s+(?i:to)\s+(.+)`)
	// "traded in the Volvo for a Kia EV6", "swapped my Civic for a
	// Corolla", "replaced my Vim with VS Code": the old thing for the new.
	tradeRe = regexp.MustCompile(endSubj + `(?i:(?:traded|swapped|exchanged)\s+(?:in\s+)?(.+?)\s+for|replaced\s+(.+?)\s+(?:with|w/?))\s+(.+)`)
)

// tradeFacts ends the old value and states the new one of a trade ("traded
// in the Volvo for a Kia EV6"), when the old value is a current fact's
// object or the new one is a known kind of thing (data/things.txt);
// otherwise it says nothing.
func (c *collector) tradeFacts(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	m := tradeRe.FindStringSubmatch(clause)
	if m == nil {
		return nil
	}
	from, to := stripDeterminer(cleanEnd(m[1]+m[2])), stripDeterminer(cleanEnd(m[3]))
	if from == "" || to == "" {
		return nil
	}
	pred, said := "", ""
	for _, p := range []struct{ pred, said string }{{"drives", "drives a"}, {"uses_editor", "uses the editor"}, {"uses_phone", "uses the phone"}, {"does", "does"}} {
		if old, ok := c.prior(subject, p.pred, from); ok {
			pred, said, from = p.pred, p.said, old
			break
		}
	}
	if pred == "" {
		switch kindOf(to) {
		case "car":
			pred, said = "drives", "drives a"
		case "editor":
			pred, said = "uses_editor", "uses the editor"
		case "phone":
			pred, said = "uses_phone", "uses the phone"
		default:
			return nil
		}
		if isPronoun(from) {
			// "replaced it with a fairphone 5": the one held before.
			from = c.priorObject(subject, pred, "")
		}
	}
	if pred == "uses_phone" {
		if m := phoneOnlyRe.FindStringSubmatch(to); m != nil {
			to = m[1] // "a fairphone 5. how do I…" is the Fairphone 5
		}
		out := []lore.ExtractedFact{phoneFact(subject, subjectType, "", to, ref)}
		if from != "" {
			out = append([]lore.ExtractedFact{ended(subject, subjectType, pred, said, from, false, "", ref)}, out...)
		}
		return out
	}
	old := ended(subject, subjectType, pred, strings.TrimSuffix(said, " a"), from, false, "", ref)
	return []lore.ExtractedFact{old, {
		Subject: subject, SubjectType: subjectType, Predicate: pred, Object: to,
		Text: factText("%s %s %s", subject, said, to), ValidAt: timePtr(ref), Confidence: 0.8,
	}}
}

// lastDay ends the employer of "last day at Trellis was Friday".
func (c *collector) lastDay(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	m := lastDayRe.FindStringSubmatch(sentence)
	if m == nil {
		return nil
	}
	return c.endEmployer(subject, subjectType, cleanEnd(m[1]), ref)
}

// endEmployer ends the speaker's employer org and the titles held there.
// An employer said in lower case ends only when the speaker was said to
// work there ("I quit the credit union"; "the chippy job" is "chippy").
func (c *collector) endEmployer(subject, subjectType, org string, ref time.Time) []lore.ExtractedFact {
	if org == "" || isTemporalWord(lore.NormalizeName(org)) {
		return nil
	}
	if !startsUpper(org) {
		hint := strings.TrimPrefix(org, "the ")
		for _, w := range []string{" job", " gig", " shifts", " shift"} {
			hint = strings.TrimSuffix(hint, w)
		}
		// "chatime over christmas": the employer is the first words.
		var held string
		ok := false
		for ws := strings.Fields(hint); len(ws) > 0 && !ok; ws = ws[:len(ws)-1] {
			if w := ws[len(ws)-1]; danglingWords[strings.ToLower(w)] || stopNames[strings.ToLower(w)] {
				continue
			}
			held, ok = c.prior(subject, "works_at", strings.Join(ws, " "))
		}
		if !ok {
			return nil
		}
		return append([]lore.ExtractedFact{ended(subject, subjectType, "works_at", "works at", held, startsUpper(held), "organization", ref)},
			c.titlesAt(subject, subjectType, held, ref)...)
	}
	// "Transnet at the end of March": the name is the capitalised run; the
	// employer held under that name ("St Mary" for "St Mary's") if any.
	name := c.fullName(capitalRun(org))
	if held, ok := c.prior(subject, "works_at", name); ok && startsUpper(held) {
		org = held
	} else {
		org = c.entity(name, "organization")
	}
	out := []lore.ExtractedFact{ended(subject, subjectType, "works_at", "works at", org, true, "organization", ref)}
	if newEmployerRe.MatchString(c.said) {
		// "got hired at Atelier Brume, left Studio Pivot": a move to
		// another employer says nothing of the title; a new one, when
		// said, replaces it.
		return out
	}
	return append(out, c.titlesAt(subject, subjectType, org, ref)...)
}

// newEmployerRe is a new employer said beside an old one that was left.
var newEmployerRe = regexp.MustCompile(`(?i)\b(?:got\s+hired|was\s+hired|hired\s+(?:at|by)|joined|joining|(?:started|starting)\s+at|new\s+job\s+(?:at|with))\b`)

// stripDeterminer drops a leading article or possessive ("the Volvo",
// "my old Civic" → "old Civic").
func stripDeterminer(s string) string {
	for _, d := range []string{"the ", "my ", "our ", "a ", "an ", "The ", "My ", "Our ", "A ", "An "} {
		if strings.HasPrefix(s, d) {
			return strings.TrimSpace(s[len(d):])
		}
	}
	return s
}

// ended builds a fact that stopped being true at the message time.
func ended(subject, subjectType, predicate, verb, object string, isEntity bool, objType string, ref time.Time) lore.ExtractedFact {
	at := ref
	return lore.ExtractedFact{
		Subject: subject, SubjectType: subjectType, Predicate: predicate,
		Object: object, ObjectIsEntity: isEntity, ObjectType: objType,
		Text:       factText("%s %s %s", subject, verb, object),
		ValidAt:    nil,
		InvalidAt:  timePtr(at),
		Confidence: 0.75,
	}
}

// verbFact turns "live in Berlin", "eat meat", "play the piano" into a
// predicate, its verb as written in a fact ("lives in") and the object.
func verbFact(verb, rest string) (predicate, said, object, objType string, entity bool) {
	verb = strings.ToLower(verb)
	obj := cleanEnd(rest)
	lower := strings.ToLower(obj)
	switch verb {
	case "live", "living":
		if o, ok := strings.CutPrefix(lower, "in "); ok {
			_ = o
			obj = strings.TrimSpace(obj[3:])
		}
		return "lives_in", "lives in", obj, "place", startsUpper(obj)
	case "work", "working":
		for _, p := range []string{"at ", "for "} {
			if strings.HasPrefix(lower, p) {
				obj = strings.TrimSpace(obj[len(p):])
			}
		}
		if strings.HasPrefix(lower, "as ") {
			obj = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(obj[3:], "a "), "an "))
			return "works_as", "works as", obj, "", false
		}
		return "works_at", "works at", obj, "organization", startsUpper(obj)
	case "learn", "learning":
		// "I stopped learning Japanese" ends what "I'm learning Japanese"
		// stated.
		return "learning", "is learning", obj, "", false
	case "take", "taking":
		// "I stopped taking sertraline", "I no longer take metformin"
		if medications[lower] {
			return "takes_medication", "takes", lower, "", false
		}
	case "eat", "eating":
		return "eats", "eats", obj, "", false
	case "drink", "drinking":
		return "drinks", "drinks", obj, "", false
	case "smoke", "smoking":
		if obj == "" {
			return "smokes", "smokes", "tobacco", "", false
		}
	case "drive", "driving":
		return "drives", "drives", obj, "", startsUpper(obj)
	case "be":
		obj = strings.TrimPrefix(strings.TrimPrefix(obj, "a "), "an ")
		if title, _ := splitJob(obj); jobTitle(title) != "" {
			return "works_as", "works as " + strings.Fields(withArticle(title))[0], strings.ToLower(title), "", false
		}
		return "is_a", "is a", obj, "", false
	case "own", "have", "has":
		return "owns", "owns", obj, "", false
	case "go", "going":
		for _, p := range []string{"to "} {
			if strings.HasPrefix(lower, p) {
				obj = strings.TrimSpace(obj[len(p):])
			}
		}
		return "goes_to", "goes to", obj, "", startsUpper(obj)
	}
	base := strings.TrimSuffix(verb, "ing")
	if base != verb {
		base = ingToBase(verb)
	}
	v := thirdPerson(base)
	return strings.ToLower(v), v, obj, "", false
}

// ingToBase undoes -ing: "running" → "run", "making" → "make", "playing" →
// "play".
func ingToBase(w string) string {
	b := strings.TrimSuffix(w, "ing")
	if len(b) >= 3 && b[len(b)-1] == b[len(b)-2] && !strings.ContainsRune("aeioulsz", rune(b[len(b)-1])) {
		return b[:len(b)-1]
	}
	if len(b) >= 2 && !strings.ContainsRune("aeiouwy", rune(b[len(b)-1])) && strings.ContainsRune("aeiou", rune(b[len(b)-2])) &&
		(len(b) < 3 || !strings.ContainsRune("aeiou", rune(b[len(b)-3]))) && (strings.HasSuffix(b, "k") || strings.HasSuffix(b, "v") || strings.HasSuffix(b, "z") || strings.HasSuffix(b, "c") || strings.HasSuffix(b, "s") || strings.HasSuffix(b, "t") || strings.HasSuffix(b, "d") || strings.HasSuffix(b, "r") || strings.HasSuffix(b, "g") || strings.HasSuffix(b, "p") || strings.HasSuffix(b, "b")) {
		return b + "e"
	}
	return b
}

// titlesAt ends the speaker's job titles that were said with the employer
// they left: "I'm a junior dev at Nubank", then "I left Nubank".
func (c *collector) titlesAt(subject, subjectType, org string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	seen := map[string]bool{}
	check := func(f lore.ExtractedFact) {
		if f.Subject != subject || f.Predicate != "works_as" || f.InvalidAt != nil || seen[f.Object] {
			return
		}
		if strings.Contains(strings.ToLower(f.Text), strings.ToLower(org)) {
			seen[f.Object] = true
			out = append(out, ended(subject, subjectType, "works_as", "works as", f.Object, false, "", ref))
		}
	}
	for _, f := range c.ex.Facts {
		check(f)
	}
	for _, f := range c.candFacts {
		check(lore.ExtractedFact{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object, Text: f.Text, InvalidAt: f.InvalidAt})
	}
	return out
}

// endingFacts finds what a clause says stopped being true, and what
// replaced it: "I quit Shopify" ends (user works_at Shopify); "moved from
// Ottawa to Toronto" ends (lives_in Ottawa) and starts (lives_in Toronto).
// Every ended fact has InvalidAt = the message time.
func (c *collector) endingFacts(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	if f := c.tradeFacts(subject, subjectType, clause, ref); f != nil {
		return f
	}
	if f := c.switchedTo(subject, subjectType, clause, ref); f != nil {
		return f
	}
	if m := fromToRe.FindStringSubmatch(clause); m != nil {
		from, to := cleanEnd(m[2]), cleanEnd(m[3])
		if from == "" || to == "" {
			return nil
		}
		verb := strings.ToLower(m[1])
		pred, said, typ := "uses", "uses", ""
		switch {
		case verb == "moved" || verb == "relocated":
			pred, said, typ = "lives_in", "lives in", "place"
		case strings.Contains(strings.ToLower(clause), "editor") || kindOf(from) == "editor" || kindOf(to) == "editor":
			pred, said = "uses_editor", "uses"
		case strings.Contains(strings.ToLower(clause), "major") || kindOf(to) == "field":
			pred, said = "major", "studies"
			// "from mechanical to software engineering": mechanical
			// engineering.
			if tw := strings.Fields(to); len(strings.Fields(from)) == 1 && len(tw) > 1 && kindOf(from) != "field" {
				from += " " + tw[len(tw)-1]
			}
			from = c.priorObject(subject, "major", from)
		default:
			// "switched from mechanical to software engineering": what
			// the speaker was said to do before names the predicate.
			if p, old, ok := c.heldValue(subject, from); ok {
				pred, said, from = p.pred, p.said, old
			}
		}
		isEnt := typ != "" && startsUpper(from) && startsUpper(to)
		if isEnt {
			from, to = c.entity(from, typ), c.entity(to, typ)
		}
		out = append(out, ended(subject, subjectType, pred, said, from, isEnt, typ, ref))
		out = append(out, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: pred,
			Object: to, ObjectIsEntity: isEnt, ObjectType: typ,
			Text: factText("%s %s %s", subject, said, to), ValidAt: timePtr(ref), Confidence: 0.8,
		})
		return out
	}
	if m := endVerbRe.FindStringSubmatch(clause); m != nil {
		verb := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
		var kind string
		for _, e := range endings {
			if e.verb == verb {
				kind = e.ends
				break
			}
		}
		rest := strings.TrimSpace(m[2])
		lower := strings.ToLower(rest)
		switch {
		case kind == "habit" || (kind == "work" && strings.HasSuffix(firstWord(lower), "ing")):
			g := firstWord(lower)
			if !strings.HasSuffix(g, "ing") {
				// "I stopped golf": the activity the speaker was said
				// to play or do; "I have stopped the Italian course":
				// what they study.
				g = firstWord(stripDeterminer(lower))
				// "gave up the car": the car the speaker drove.
				if obj := stripDeterminer(cleanEnd(rest)); kindOf(obj) == "car" || strings.EqualFold(obj, "car") {
					if car, ok := c.prior(subject, "drives", ""); ok && car != "" {
						out = append(out, ended(subject, subjectType, "drives", "drives", car, false, "", ref))
					}
					break
				}
				for _, p := range []string{"plays", "does", "major"} {
					if held, ok := c.prior(subject, p, g); ok && g != "" {
						out = append(out, ended(subject, subjectType, p, p, held, false, "", ref))
						break
					}
				}
				break
			}
			pred, said, obj, typ, ent := verbFact(g, rest[len(g):])
			if obj == "" {
				// "I stopped running": (user does running), "user runs".
				f := ended(subject, subjectType, "does", "does", g, false, "", ref)
				f.Text = factText("%s %s", subject, thirdPerson(ingToBase(g)))
				out = append(out, f)
				break
			}
			out = append(out, ended(subject, subjectType, pred, said, obj, ent, typ, ref))
		case kind == "work":
			obj := rest
			for _, p := range []string{"my job at ", "my job with ", "my job as ", "my position at ", "my role at ", "working at ", "working for ", "my job", "the company", "work"} {
				if strings.HasPrefix(lower, p) {
					obj = rest[len(p):]
					if p == "my job as " {
						title := cleanEnd(strings.TrimPrefix(strings.TrimPrefix(obj, "a "), "an "))
						if title != "" {
							out = append(out, ended(subject, subjectType, "works_as", "works as", title, false, "", ref))
						}
						return out
					}
					break
				}
			}
			if f := c.endEmployer(subject, subjectType, cleanEnd(obj), ref); f != nil {
				out = append(out, f...)
				break
			}
			// "I quit futsal": no employer, an activity the speaker was
			// said to play or do; "I left the choir": a group joined.
			if g := firstWord(stripDeterminer(lower)); g != "" {
				for _, p := range []string{"plays", "does", "joined"} {
					if held, ok := c.prior(subject, p, g); ok {
						out = append(out, ended(subject, subjectType, p, p, held, false, "", ref))
						break
					}
				}
			}
		case kind == "own":
			obj := cleanEnd(rest)
			if obj != "" && !isPronoun(obj) {
				out = append(out, ended(subject, subjectType, "owns", "owns", obj, false, "", ref))
				// "Sold the Civic" also ends driving the 2012 Honda Civic.
				if car, ok := c.prior(subject, "drives", obj); ok {
					out = append(out, ended(subject, subjectType, "drives", "drives", car, false, "", ref))
				} else if car := c.priorObject(subject, "drives", ""); car != "" && (kindOf(obj) == "car" || strings.EqualFold(obj, "car")) {
					// Without a stored car there is nothing to end.
					out = append(out, ended(subject, subjectType, "drives", "drives", car, false, "", ref))
				} else if m := phoneOnlyRe.FindStringSubmatch(obj); m != nil {
					phone := c.priorObject(subject, "uses_phone", strings.TrimSpace(m[1]))
					out = append(out, ended(subject, subjectType, "uses_phone", "uses the phone", phone, false, "", ref))
				}
			}
		case kind == "partner":
			name := cleanEnd(rest)
			if startsUpper(name) && !isPronoun(name) {
				out = append(out, c.breakUp(subject, subjectType, name, ref)...)
			}
		}
		return out
	}
	if m := notAnymoreRe.FindStringSubmatch(clause); m != nil {
		obj := cleanEnd(m[1])
		// "I'm not working at St Mary's anymore" is "not at St Mary's".
		said := notDoingRe.ReplaceAllString(strings.TrimSpace(m[1]), "$1 ")
		if org, ok := cutAnyPrefix(said, "at ", "for ", "with "); ok && startsUpper(org) {
			// "I'm not at Shopify anymore": the employer ended.
			return append(out, c.endEmployer(subject, subjectType, cleanEnd(org), ref)...)
		}
		if place, ok := strings.CutPrefix(said, "in "); ok && startsUpper(place) {
			place = cleanEnd(place)
			// "I'm not in Hamburg anymore": no longer lives there.
			place = c.entity(place, "place")
			return append(out, ended(subject, subjectType, "lives_in", "lives in", place, true, "place", ref))
		}
		pred := "is"
		if diets[strings.ToLower(obj)] {
			pred = "diet"
		}
		if obj != "" && !isPronoun(obj) {
			out = append(out, ended(subject, subjectType, pred, "is", obj, false, "", ref))
		}
		return out
	}
	m := noLongerRe.FindStringSubmatch(clause)
	if m != nil && strings.Contains(strings.ToLower(m[0]), "longer") || m != nil && anymoreRe.MatchString(clause) {
		// "I don't run anymore": the activity held as "does running".
		if held, ok := c.heldActivity(subject, m[1]); ok {
			return append(out, ended(subject, subjectType, "does", "does", held, false, "", ref))
		}
		pred, said, obj, typ, ent := verbFact(m[1], m[2])
		if obj != "" && !isPronoun(obj) {
			if ent {
				obj = c.entity(obj, typ)
			}
			out = append(out, ended(subject, subjectType, pred, said, obj, ent, typ, ref))
		}
		return out
	}
	if m := usedToRe.FindStringSubmatch(clause); m != nil {
		pred, said, obj, typ, ent := verbFact(m[1], m[2])
		if obj != "" && !isPronoun(obj) {
			if ent {
				obj = c.entity(obj, typ)
			}
			out = append(out, ended(subject, subjectType, pred, said, obj, ent, typ, ref))
		}
	}
	return out
}

var (
	// "switched to enviro sci, marine bio had way too much chem": a new
	// value, the old one named elsewhere in the sentence.
	switchedToRe = regexp.MustCompile(`(?i)^\s*(?:(?:i|we)\s+(?:have\s+)?)?(?:just\s+|finally\s+|officially\s+)*(?:switched|changed)\s+(?:my\s+(?:major|degree|course|programme|program)\s+)?to\s+([\p{L}][\p{L} -]{1,30}?)\s*(?:[,.;!]|$)`)
	// "bouldering is on pause", "the choir is on hold": an activity held
	// stopped for now.
	onPauseRe = regexp.MustCompile(`(?i)\b([\p{L}][\p{L}-]*(?:\s+[\p{L}][\p{L}-]*)?)\s+(?:is|'s|’s)\s+(?:on\s+(?:pause|hold|hiatus|ice)|paused)\b`)
)

// switchedTo ends a held value of what the speaker studies or does and
// states the new one, when the sentence names both ("switched to enviro
// sci, marine bio had too much chem"), or ends an activity said to be on
// pause; otherwise nil.
func (c *collector) switchedTo(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	if m := onPauseRe.FindStringSubmatch(clause); m != nil {
		for _, p := range []string{"does", "plays"} {
			if held, ok := c.prior(subject, p, strings.ToLower(m[1])); ok {
				return []lore.ExtractedFact{ended(subject, subjectType, p, p, held, false, "", ref)}
			}
		}
		return nil
	}
	m := switchedToRe.FindStringSubmatch(clause)
	if m == nil {
		return nil
	}
	to := strings.TrimSpace(m[1])
	sentence := strings.ToLower(c.said)
	for _, p := range []struct{ pred, said string }{{"major", "studies"}, {"does", "does"}} {
		held, ok := c.prior(subject, p.pred, "")
		if !ok || held == "" || !strings.Contains(sentence, strings.ToLower(held)) || strings.EqualFold(held, to) {
			continue
		}
		return []lore.ExtractedFact{
			ended(subject, subjectType, p.pred, p.said, held, false, "", ref),
			{Subject: subject, SubjectType: subjectType, Predicate: p.pred, Object: strings.ToLower(to),
				Text: factText("%s %s %s", subject, p.said, to), ValidAt: timePtr(ref), Confidence: 0.75},
		}
	}
	return nil
}

// heldActivity is the speaker's current "does" value that is verb's -ing
// form ("run" → "running", "swim" → "swimming", "dance" → "dancing").
func (c *collector) heldActivity(subject, verb string) (string, bool) {
	v := strings.ToLower(verb)
	if len(v) < 3 {
		return "", false
	}
	for _, ing := range []string{v + "ing", v + v[len(v)-1:] + "ing", strings.TrimSuffix(v, "e") + "ing"} {
		if held, ok := c.prior(subject, "does", ing); ok && strings.EqualFold(held, ing) {
			return held, true
		}
	}
	return "", false
}

// switchable are the predicates whose held value "switched from X to Y"
// can name when the words say no kind: what someone studies, drives, codes
// in or does.
var switchable = []struct{ pred, said string }{{"major", "studies"}, {"drives", "drives"}, {"uses_editor", "uses"}, {"does", "does"}}

// heldValue finds, among subject's switchable predicates, the current value
// that from names.
func (c *collector) heldValue(subject, from string) (p struct{ pred, said string }, old string, ok bool) {
	for _, p := range switchable {
		if old, ok := c.prior(subject, p.pred, from); ok {
			return p, old, true
		}
	}
	return p, "", false
}

// cutAnyPrefix cuts the first of prefixes that s starts with.
func cutAnyPrefix(s string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest, true
		}
	}
	return s, false
}

// cleanEnd is cleanObject for an ending's object, with the dates in it
// taken out ("Sam last month" → "Sam").
func cleanEnd(obj string) string {
	return cleanObject(obj, temporal.Parse(obj, time.Now()), 0)
}

// sentenceEndings finds endings that span clauses: "Felix isn't my
// roommate anymore", "Chloe and I broke up".
func (c *collector) sentenceEndings(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	if m := notMyRoleRe.FindStringSubmatch(sentence); m != nil && !isStopName(m[1]) {
		role := m[2] + m[3]
		if f := c.relationFact(subject, subjectType, role, m[1], ref); f != nil {
			f.ValidAt, f.InvalidAt = nil, timePtr(ref)
			f.Text = factText("%s is %s %s", f.Object, possessive(subject), canonicalRole(role))
			out = append(out, *f)
		}
		return out
	}
	if m := brokeUpRe.FindStringSubmatch(sentence); m != nil && !isStopName(m[1]) {
		return append(out, c.breakUp(subject, subjectType, m[1], ref)...)
	}
	if m := roleBrokeUpRe.FindStringSubmatch(sentence); m != nil {
		if name, ok := c.prior(subject, rolePredicate(canonicalRole(strings.ToLower(m[1]))), ""); ok && name != "" {
			return append(out, c.breakUp(subject, subjectType, name, ref)...)
		}
	}
	// "I'm retired now": the employer and the title end; "I got laid off",
	// "I'm unemployed at the moment": the employer.
	if m := outOfWorkRe.FindStringSubmatch(sentence); m != nil && !unasserted(sentence, m[0]) {
		if org, ok := c.prior(subject, "works_at", ""); ok && org != "" {
			out = append(out, ended(subject, subjectType, "works_at", "works at", org, startsUpper(org), "organization", ref))
		}
		if retired := strings.Contains(strings.ToLower(m[0]), "retired"); retired {
			if title, ok := c.prior(subject, "works_as", ""); ok && title != "" {
				out = append(out, ended(subject, subjectType, "works_as", "works as", title, false, "", ref))
			}
		}
		return out
	}
	// "my flatmate moved out": the one the speaker shares a home with.
	if m := roleMovedOutRe.FindStringSubmatch(sentence); m != nil {
		role := canonicalRole(strings.ToLower(m[1]))
		if name, ok := c.prior(subject, rolePredicate(role), ""); ok && name != "" {
			if f := c.relationFact(subject, subjectType, role, name, ref); f != nil {
				f.ValidAt, f.InvalidAt = nil, timePtr(ref)
				return append(out, *f)
			}
		}
	}
	if singleAgainRe.MatchString(sentence) {
		if name, ok := c.prior(subject, "dates", ""); ok && name != "" {
			return append(out, c.breakUp(subject, subjectType, name, ref)...)
		}
	}
	return out
}

// holderLeftRe is someone who stopped doing what they did for the speaker:
// "Dr. Whitcombe has retired", "Dr. Herrera retired", "Monsieur Perrin
// retire".
var holderLeftRe = regexp.MustCompile(`\b` + nameRe + `\s+(?:has\s+|had\s+|just\s+|finally\s+|recently\s+)*(?:retired|retires|retire|is\s+retiring|moved\s+away|stopped\s+practi[cs]ing|closed\s+(?:his|her|their)\s+practice)\b`)

// holdersLeft ends the speaker's one-holder roles (data/roles.txt "one")
// held by someone the sentence says retired or moved away: a doctor who
// retired is no longer the speaker's doctor. A friend or a brother who
// retires stays one.
func (c *collector) holdersLeft(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	for _, m := range holderLeftRe.FindAllStringSubmatch(sentence, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) {
			out = append(out, c.endRoles(subject, subjectType, oneHolderRoleList, dropOpener(m[1]), ref)...)
		}
	}
	return out
}

// endRoles ends each of roles that the subject's current facts give name.
func (c *collector) endRoles(subject, subjectType string, roles []string, name string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	for _, role := range roles {
		if _, ok := c.prior(subject, rolePredicate(role), name); !ok {
			continue
		}
		if f := c.relationFact(subject, subjectType, role, name, ref); f != nil {
			f.ValidAt, f.InvalidAt = nil, timePtr(ref)
			out = append(out, *f)
		}
	}
	return out
}

// partnerRoles are the roles a break-up ends.
var partnerRoles = []string{"girlfriend", "boyfriend", "partner", "fiance", "fiancee", "wife", "husband", "spouse"}

// breakUp ends the speaker's dating name and the partner role they gave
// them ("Chloe and I broke up": Chloe is no longer user's girlfriend).
func (c *collector) breakUp(subject, subjectType, name string, ref time.Time) []lore.ExtractedFact {
	name = c.entity(name, "person")
	out := []lore.ExtractedFact{ended(subject, subjectType, "dates", "dates", name, true, "person", ref)}
	return append(out, c.endRoles(subject, subjectType, partnerRoles, name, ref)...)
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.Trim(f[0], ",.!?;:")
}
