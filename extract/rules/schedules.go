package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// Schedules: the weekday something recurring happens on ("my night shifts
// are on Tuesdays", "I play canasta every Tuesday", "Fridays I have choir")
// and a change of it ("we changed the canasta to Thursdays", "my night
// shift moves to Thursdays", "now closed on Wednesday, not Monday"). Each is
// (speaker, schedule, "<thing> on <day>"); a change ends the schedule of
// the same thing, which is how "Which day do I play canasta?" finds the
// current day. A bare singular weekday ("a meeting on Friday") is one
// occasion, not a schedule, unless the thing is a place's hours.

const (
	dayName = `(?:mon|tues|wednes|thurs|fri|satur|sun)day`
	// "Tuesdays", "every Tuesday", "Tuesday and Thursday evenings"
	dayPhrase = `(` + dayName + `s?(?:\s+(?:and|&|\+|or)\s+` + dayName + `s?)?(?:\s+(?:nights?|evenings?|mornings?|afternoons?))?)`
	// The thing: up to four words after "my"/"our"/"the".
	thingPhrase = `((?:[\p{L}][\p{L}-]*\s+){0,3}?[\p{L}][\p{L}-]*)`
	hoursWords  = `(?:closed|open|shut)`
)

var (
	// "my night shifts are on Tuesdays", "the shop is closed on Monday"
	scheduleIsRe = regexp.MustCompile(`(?i)\b(?:my|our|the)\s+` + thingPhrase + `\s+(?:is|are)\s+(?:now\s+|always\s+|usually\s+|still\s+|only\s+)?(` + hoursWords + `\s+)?(on|every)\s+` + dayPhrase + `\b`)
	// "I play canasta on Tuesdays", "we have choir every Wednesday"
	scheduleVerbRe = regexp.MustCompile(subj + `(play|have|do|attend|teach|take|coach|go\s+to)\s+(?:my\s+|the\s+|our\s+)?` + thingPhrase + `\s+(on|every)\s+` + dayPhrase + `\b`)
	// "Tuesdays I play canasta"
	scheduleDayFirstRe = regexp.MustCompile(`(?i)^(?:and\s+|also\s+|on\s+)?` + dayPhrase + `,?\s+(?:i|we)\s+(?:usually\s+|always\s+)?(play|have|do|attend|teach|take|coach|go\s+to)\s+(?:my\s+|the\s+|our\s+)?` + thingPhrase + `\b`)
	// "we changed the canasta to Thursdays", "moved my lesson to Fridays"
	scheduleMovedRe = regexp.MustCompile(`(?i)\b(?:changed|moved|switched|shifted|pushed|swapped)\s+(?:my\s+|the\s+|our\s+)` + thingPhrase + `\s+to\s+` + dayPhrase + `\b`)
	// "my night shift moves to Thursdays", "the choir changed to Fridays"
	scheduleMovesRe = regexp.MustCompile(`(?i)\b(?:my|our|the)\s+` + thingPhrase + `\s+(?:now\s+)?(?:moves|moved|has\s+moved|is\s+moving|changed|changes|has\s+changed|is\s+changing|switched|shifts|shifted|is\s+now)\s+(?:to\s+|on\s+)` + dayPhrase + `\b`)
	// "now closed on Wednesday, not Monday": the thing is the one that was
	// on the old day.
	scheduleNotRe = regexp.MustCompile(`(?i)\bnow\s+(` + hoursWords + `\s+)?on\s+` + dayPhrase + `,?\s+not\s+(?:on\s+)?` + dayPhrase + `\b`)
)

// scheduleGeneric are words that name the kind of a recurring thing, not
// which one: "Italian class" and "pottery class" are different things.
var scheduleGeneric = listSet(strings.Fields(`class classes practice practices lesson lessons session sessions club meeting meetings group league training course night nights day days time times evening evenings morning mornings weekly regular usual new old`))

// scheduleFacts finds schedules and their changes in one sentence.
func (c *collector) scheduleFacts(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	// text is the speaker's own words with the speaker resolved: "user's
	// night shift moves to Thursdays".
	state := func(thing, day, text string, ended *lore.ExtractedFact) {
		thing = strings.ToLower(strings.TrimSpace(thing))
		if thing == "" || strings.Contains(thing, "'") || len(scheduleKey(thing)) == 0 || notAThing(thing) {
			return
		}
		if ended != nil {
			out = append(out, *ended)
		} else if old, ok := c.priorSchedule(subject, thing, day); ok {
			out = append(out, endedSchedule(subject, subjectType, old, ref))
		}
		obj := thing + " on " + day
		out = append(out, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: "schedule", Object: obj,
			Text: factText("%s", text), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	recurring := func(on, day string) bool {
		return strings.EqualFold(on, "every") || strings.HasSuffix(strings.Fields(strings.ToLower(day))[0], "s")
	}
	// The speaker's verb for a fact text: "I play" → "plays".
	said := func(verb string) string {
		ws := strings.Fields(strings.ToLower(verb))
		ws[0] = thirdPerson(ws[0])
		return strings.Join(ws, " ")
	}
	if m := scheduleMovedRe.FindStringSubmatch(sentence); m != nil {
		state(m[1], m[2], subject+" "+m[0], nil)
	} else if m := scheduleMovesRe.FindStringSubmatch(sentence); m != nil {
		state(m[1], m[2], possessed(subject, m[0]), nil)
	} else if m := scheduleNotRe.FindStringSubmatch(sentence); m != nil {
		if old, ok := c.priorScheduleOn(subject, m[3]); ok {
			thing, _, _ := strings.Cut(old, " on ")
			e := endedSchedule(subject, subjectType, old, ref)
			state(thing, m[2], subject+"'s "+thing+": "+m[0], &e)
		}
	} else if m := scheduleIsRe.FindStringSubmatch(sentence); m != nil {
		hours := strings.ToLower(strings.TrimSpace(m[2]))
		if hours != "" || recurring(m[3], m[4]) {
			state(strings.TrimSpace(m[1]+" "+hours), m[4], possessed(subject, m[0]), nil)
		}
	} else if m := scheduleVerbRe.FindStringSubmatch(sentence); m != nil {
		if recurring(m[3], m[4]) {
			state(m[2], m[4], factText("%s %s %s %s %s", subject, said(m[1]), strings.ToLower(m[2]), m[3], m[4]), nil)
		}
	} else if m := scheduleDayFirstRe.FindStringSubmatch(sentence); m != nil {
		if recurring("", m[1]) {
			state(m[3], m[1], factText("%s %s %s on %s", subject, said(m[2]), strings.ToLower(m[3]), m[1]), nil)
		}
	}
	return out
}

// possessed puts the subject's name for the determiner that opens span:
// "my night shift moves…" → "user's night shift moves…".
func possessed(subject, span string) string {
	_, rest, _ := strings.Cut(span, " ")
	return subject + "'s " + rest
}

// endedSchedule ends a schedule fact by its object.
func endedSchedule(subject, subjectType, object string, ref time.Time) lore.ExtractedFact {
	f := ended(subject, subjectType, "schedule", "has", object, false, "", ref)
	thing, day, _ := strings.Cut(object, " on ")
	f.Text = factText("%s's %s: on %s", subject, thing, day)
	return f
}

// notAThing reports a captured "thing" that is the rest of a verb phrase:
// "have been having trouble sleeping", "have already taken the train",
// "take the dog with me to work".
func notAThing(thing string) bool {
	first := strings.Fields(thing)[0]
	switch first {
	case "been", "already", "just", "also", "still", "with", "to", "it", "them", "him", "her", "me", "us", "you", "some", "this", "that":
		return true
	}
	return strings.HasSuffix(first, "ed") || strings.HasSuffix(first, "en")
}

// scheduleKey is the words of a thing that say which one it is: "night
// shifts" → {shift}, "Italian class" → {italian}.
func scheduleKey(thing string) map[string]bool {
	k := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(thing)) {
		w = strings.TrimSuffix(w, "s")
		if len(w) > 2 && !scheduleGeneric[w] && !scheduleGeneric[w+"s"] && !isTemporalWord(w) {
			k[w] = true
		}
	}
	return k
}

// priorSchedule finds the current schedule of the same thing on another
// day.
func (c *collector) priorSchedule(subject, thing, day string) (string, bool) {
	key := scheduleKey(thing)
	return c.lastCurrent(subject, "schedule", func(obj string) bool {
		t, d, _ := strings.Cut(obj, " on ")
		if strings.EqualFold(d, day) {
			return false
		}
		for w := range scheduleKey(t) {
			if key[w] {
				return true
			}
		}
		return false
	})
}

// priorScheduleOn finds the current schedule on a day ("not Monday").
func (c *collector) priorScheduleOn(subject, day string) (string, bool) {
	d := strings.TrimSuffix(strings.ToLower(strings.Fields(day)[0]), "s")
	return c.lastCurrent(subject, "schedule", func(obj string) bool {
		_, on, _ := strings.Cut(strings.ToLower(obj), " on ")
		return strings.HasPrefix(on, d)
	})
}
