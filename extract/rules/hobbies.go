package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// The speaker's sports and pastimes, (user does <activity>): "I go
// bouldering twice a week", "I do yoga", "I've taken up Nordic walking",
// "she got me into rowing", "my only exercise is swimming". "I quit
// swimming" ends the same fact (endings.go), so what the speaker does now
// is the current value.

var (
	activityWords = readList("activities.txt")
	ingNouns      = listSet(readList("ing_nouns.txt"))
	// An activity: a listed name ("yoga", "tai chi"), or a gerund with at
	// most one word before it ("running", "Nordic walking").
	activityAlt = `(` + alternation(listSet(activityWords)) + `|(?:[\p{L}-]+\s+)?[\p{L}-]{3,}ing)\b`
	// "I go bouldering", "I do yoga", "we've been doing pilates".
	doActivityRe = regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:(?:also|still|now|usually|mostly|regularly|often|sometimes|really|mainly|currently|actually)\s+)*(?:go|do|practi[cs]e|(?:have|'ve|am|'m|are|'re)\s+(?:(?:also|still|now|been)\s+)*doing)\s+` + activityAlt)
	// "I took up pottery", "I've taken up Nordic walking", "I got into
	// climbing", "she got me into rowing".
	tookUpRe    = regexp.MustCompile(`(?i)\b(?:(?:i|we)\s+(?:(?:have|'ve|had|just|recently|finally|also|now)\s+)*(?:took|taken|take|picked|pick|started)\s+up|(?:i|we)\s+(?:(?:have|'ve|just|recently|also|really)\s+)*(?:got|gotten|am|'m)\s+(?:really\s+)?into|(?:got|gets|getting)\s+(?:me|us)\s+into)\s+(?:(?:a\s+bit\s+of|some)\s+)?` + activityAlt)
	instruments = readList("instruments.txt")
	// "I'm on bass", "my flatmate Euan is on drums": a band member's part.
	myInstrumentRe    = regexp.MustCompile(`(?i)\b(?:i\s+am|i'm|i’m|im)\s+(?:(?:now|still|also|mostly)\s+)?on\s+(` + alternation(listSet(instruments)) + `)\b`)
	theirInstrumentRe = regexp.MustCompile(nameRe + `\s+(?:is|'s|’s)\s+(?:(?:now|still|also)\s+)?on\s+(?i:(` + alternation(listSet(instruments)) + `))\b`)
	// "i boulder like 3x a week", "I swim twice a week", "we hike every
	// weekend": a sport said by its verb and how often (without a
	// frequency, "I run the team" is no sport).
	verbActivityRe = regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:(?:also|still|now|usually|mostly|regularly|often|really|mainly|currently|actually)\s+)*(boulder|climb|surf|swim|run|jog|hike|cycle|bike|skate|row|box|dance|ski|snowboard|kayak|paddle|golf|fence|skydive|sail)\s+(?:(?:like|about|around|maybe|at\s+least)\s+)?(?:\d+\s*(?:x|times)|once|twice|three\s+times|four\s+times|every\s+(?:day|morning|evening|week|weekend|saturday|sunday)|most\s+(?:days|mornings|evenings|weekends)|on\s+(?:the\s+)?weekends|daily|weekly|regularly)\b`)
	// "my only exercise is swimming", "my hobby is chess".
	myActivityRe = regexp.MustCompile(`(?i)\bmy\s+(?:only\s+|main\s+|favou?rite\s+|new\s+)?(?:exercise|sport|hobby|workout)\s+(?:is|are|these\s+days\s+is)\s+(?:now\s+)?` + activityAlt)
)

// activityFacts reads the sports and pastimes the speaker does in one
// clause.
func (c *collector) activityFacts(subject, subjectType, clause string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	seen := map[string]bool{}
	does := func(what string) {
		if what == "" || seen[strings.ToLower(what)] {
			return
		}
		seen[strings.ToLower(what)] = true
		out = append(out, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: "does", Object: what,
			Text: factText("%s does %s", subject, what), ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	for _, re := range []*regexp.Regexp{doActivityRe, tookUpRe, myActivityRe} {
		for _, m := range re.FindAllStringSubmatch(clause, -1) {
			does(activityName(m[1]))
		}
	}
	if m := verbActivityRe.FindStringSubmatch(clause); m != nil {
		does(gerund(strings.ToLower(m[1])))
	}
	if m := myInstrumentRe.FindStringSubmatch(clause); m != nil {
		out = append(out, c.plays(subject, subjectType, m[1], ref))
	}
	for _, m := range theirInstrumentRe.FindAllStringSubmatch(clause, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) {
			out = append(out, c.plays(c.entity(m[1], "person"), "person", m[2], ref))
		}
	}
	return out
}

// plays states the instrument someone plays.
func (c *collector) plays(subject, subjectType, instrument string, ref time.Time) lore.ExtractedFact {
	instrument = strings.ToLower(instrument)
	return lore.ExtractedFact{
		Subject: subject, SubjectType: subjectType, Predicate: "plays", Object: instrument,
		Text: factText("%s plays %s", subject, instrument), ValidAt: timePtr(ref), Confidence: 0.75,
	}
}

// activityName keeps an activity phrase that names one: a listed name, or
// a gerund that is no noun or function word ("nothing", "morning"), with a
// word before it only when that word is no article or possessive ("the
// swimming" is "swimming").
func activityName(phrase string) string {
	words := strings.Fields(phrase)
	last := strings.ToLower(words[len(words)-1])
	lower := strings.ToLower(phrase)
	for _, a := range activityWords {
		if lower == a || strings.HasSuffix(lower, " "+a) {
			return a
		}
	}
	if !strings.HasSuffix(last, "ing") || ingNouns[last] {
		return ""
	}
	if len(words) == 2 {
		first := strings.ToLower(words[0])
		if danglingWords[first] || adverbs[first] {
			return words[1]
		}
	}
	if len(words) == 2 && !startsUpper(words[0]) {
		// "trail running" keeps its word; "a lot of swimming" never
		// reaches here (one word before at most).
		return lower
	}
	return phrase
}

// gerund is the activity a sport verb names: "swim" → "swimming", "hike"
// → "hiking", "boulder" → "bouldering".
func gerund(verb string) string {
	switch {
	case strings.HasSuffix(verb, "e"):
		return strings.TrimSuffix(verb, "e") + "ing"
	case verb == "swim" || verb == "run" || verb == "jog":
		return verb + verb[len(verb)-1:] + "ing"
	}
	return verb + "ing"
}
