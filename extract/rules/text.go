package rules

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/lore-memory/lore/temporal"
)

// splitSentences cuts text at sentence punctuation followed by a space and at
// line breaks. Abbreviations such as "Dr." are kept with the next word.
func splitSentences(text string) []string {
	var out []string
	start := 0
	runes := []rune(text)
	flush := func(end int) {
		s := strings.TrimSpace(string(runes[start:end]))
		if s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i, r := range runes {
		switch {
		case r == '\n':
			flush(i + 1)
		case unicode.Is(unicode.So, r) && i+2 < len(runes) && runes[i+1] == ' ' && unicode.IsUpper(runes[i+2]):
			// "Inspiring 💪 I emailed some wholesalers": an emoji ends a
			// sentence as a full stop would.
			flush(i + 1)
		case emoticonEnd(runes, i):
			// "so no more Dona Cida :( can you help me…": a text emoticon
			// ends a sentence as a full stop would, so the question after
			// it does not swallow the statement before it.
			flush(i + 1)
		case (r == '.' || r == '!' || r == '?') && i+1 < len(runes) && unicode.IsSpace(runes[i+1]):
			word := lastWord(string(runes[start:i]))
			switch strings.ToLower(word) {
			case "dr", "mr", "mrs", "ms", "st", "jr", "sr", "prof", "mt":
				continue
			}
			flush(i + 1)
		}
	}
	flush(len(runes))
	return out
}

// emoticonEnd reports whether runes[i] closes a text emoticon (":(", ":-)",
// ";D") that stands as its own word: after a space, before a space or the end.
func emoticonEnd(runes []rune, i int) bool {
	if !strings.ContainsRune(")(DPp/", runes[i]) || (i+1 < len(runes) && !unicode.IsSpace(runes[i+1])) {
		return false
	}
	j := i - 1
	if j >= 0 && runes[j] == '-' {
		j--
	}
	if j < 0 || (runes[j] != ':' && runes[j] != ';') {
		return false
	}
	return j == 0 || unicode.IsSpace(runes[j-1])
}

var contractions = strings.NewReplacer(
	"’", "'", "‘", "'",
	"I'm ", "I am ", "i'm ", "I am ", "I've ", "I have ", "i've ", "I have ",
	"I'd ", "I would ", "I'll ", "I will ", "We're ", "We are ", "we're ", "we are ",
	"We've ", "We have ", "we've ", "we have ",
)

// expandContractions rewrites "I'm" to "I am" and the like, keeping length
// differences harmless because offsets are taken after expansion.
func expandContractions(s string) string { return contractions.Replace(s) }

// bareImRe is "im" texted for "I'm" ("im 29, work night shifts"), a word
// of its own before another.
var bareImRe = regexp.MustCompile(`(^|[\s,.;:!(])(?:im|Im|IM)\s+`)

// bareSheIsRe is "shes"/"hes" texted for "she's"/"he's" ("shes a
// pharmacist"); neither is an English word.
var bareSheIsRe = regexp.MustCompile(`(^|[\s,.;:!(])([Ss]he|[Hh]e)s\s+`)

// bulletRe is a list marker opening a line: "• ", "- ", "2) ", "3. ".
var bulletRe = regexp.MustCompile(`^\s*(?:[-*•‣◦–]|\d{1,2}[.)])\s+`)

// stripBullet drops a list item's marker, so "• Joining Parcelwala as an
// analyst" reads as a sentence with its subject left out.
func stripBullet(s string) string { return bulletRe.ReplaceAllString(s, "") }

// untext restores what texting drops that the patterns need: "im" → "I'm",
// "shes" → "she's".
func untext(s string) string {
	s = bareImRe.ReplaceAllString(s, "${1}I'm ")
	return bareSheIsRe.ReplaceAllString(s, "${1}${2}'s ")
}

// clauseStartRe finds a conjunction that starts a new first-person clause:
// "My name is Alex and I live in Lisbon" holds two statements.
var clauseStartRe = regexp.MustCompile(`(?i)(?:[,;]\s*(?:(?:and|but|so|because|while|though|although|then|plus)\s+)?|\s+(?:and|but|so|because|while|though|although|then|plus)\s+)\b(i|we|my)\s`)

// splitClauses cuts a sentence before each conjunction that starts a new
// first-person clause.
func splitClauses(sentence string) []string {
	var out []string
	start := 0
	for _, m := range clauseStartRe.FindAllStringSubmatchIndex(sentence, -1) {
		if m[0] == 0 || m[2] <= start {
			continue
		}
		if c := strings.TrimSpace(sentence[start:m[0]]); c != "" {
			out = append(out, c)
		}
		start = m[2]
	}
	if c := strings.TrimSpace(sentence[start:]); c != "" {
		out = append(out, c)
	}
	return out
}

// continuedRe is a comma or "and" before a word that may be a verb whose
// subject the clause already gave: "I left Nubank and joined Mercado
// Livre", "I am 29, work night shifts as a paramedic".
var continuedRe = regexp.MustCompile(`(?:,\s*(?:and\s+|then\s+)?|\s+and\s+(?:then\s+)?)(\p{Ll}[\p{Ll}'’]*)\b`)

// splitContinued cuts a first-person clause before each verb phrase that
// shares its subject, and gives each such phrase the subject back ("I
// joined Mercado Livre"), so the patterns, which want a subject, read it.
// A past-tense or narrative verb (subjectless.txt) or a present-tense one
// of continued.txt counts after "and" or a comma; an -ing form only after a
// comma ("I like reading and learning languages" joins two likings).
func splitContinued(clause string) []string {
	// "News: I left the county office and joined Mavuno Seeds": a short
	// label before a colon stays with the first piece.
	if i := strings.Index(clause, ": "); i > 0 && len(strings.Fields(clause[:i])) <= 3 {
		out := splitContinued(clause[i+2:])
		if len(out) > 1 {
			out[0] = clause[:i+2] + out[0]
			return out
		}
		return []string{clause}
	}
	w := lowerWords(clause)
	for len(w) > 0 && adverbs[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 || (w[0] != "i" && w[0] != "we") {
		return []string{clause}
	}
	var cuts [][2]int // [end of the piece before, start of the verb]
	for _, m := range continuedRe.FindAllStringSubmatchIndex(clause, -1) {
		word := strings.ToLower(clause[m[2]:m[3]])
		comma := clause[m[0]] == ','
		switch {
		case adverbs[word]:
			continue
		case continuedVerbs[word]:
		case subjectless[word] && (comma || !strings.HasSuffix(word, "ing")):
			if !leftOutSubject(clause[m[2]:]) {
				continue
			}
		default:
			continue
		}
		cuts = append(cuts, [2]int{m[0], m[2]})
	}
	if len(cuts) == 0 {
		return []string{clause}
	}
	out := []string{strings.TrimSpace(clause[:cuts[0][0]])}
	for i, c := range cuts {
		end := len(clause)
		if i+1 < len(cuts) {
			end = cuts[i+1][0]
		}
		piece := strings.TrimSpace(clause[c[1]:end])
		out = append(out, restoreSubject(piece, lowerWords(piece)))
	}
	return out
}

// clauseBreaks end an object phrase.
var clauseBreaks = []string{
	" and ", " but ", " because ", " so ", " which ", " when ", " where ", " while ", " since ",
	" after ", " before ", " if ", " who ", " that ", " as ", " until ", " though ", " although ",
	" with ", " for the ", " for a ", " for an ", " to see ", " to get ", " or ",
}

// trailingFillers are dropped from the end of an object phrase.
var trailingFillers = []string{
	" too", " a lot", " so much", " very much", " now", " anymore", " again", " lately", " right now",
	" these days", " nowadays", " as well", " really", " though", " actually", " recently", " together",
	" at the moment", " currently", " every day", " each day", " every week", " for good", " btw", " lol", " tbh",
	" haha", " lmao", " fyi", " tho", " though",
}

// cleanObject trims an object phrase to its first clause, drops date
// expressions, articles and fillers, and keeps at most six words.
func cleanObject(obj string, spans []temporal.Span, offset int) string {
	// Remove the date expressions that fall inside the object.
	for i := len(spans) - 1; i >= 0; i-- {
		s := spans[i]
		start, end := s.Offset-offset, s.Offset-offset+len(s.Text)
		if start >= 0 && end <= len(obj) {
			obj = obj[:start] + obj[end:]
		}
	}
	if i := strings.IndexAny(obj, ",.;:!?()\"[]—–"); i >= 0 {
		obj = obj[:i]
	}
	lower := strings.ToLower(obj)
	for _, b := range clauseBreaks {
		if i := strings.Index(lower, b); i >= 0 {
			obj, lower = obj[:i], lower[:i]
		}
	}
	obj = strings.Join(strings.Fields(obj), " ")
	for changed := true; changed; {
		changed = false
		lower = strings.ToLower(obj)
		for _, f := range trailingFillers {
			if strings.HasSuffix(" "+lower, f) {
				obj = strings.TrimSpace(obj[:max(len(obj)-len(f), 0)])
				changed = true
				break
			}
		}
		for _, a := range []string{"a ", "an ", "the ", "some ", "my ", "our ", "to ", "on ", "at ", "in "} {
			if strings.HasPrefix(strings.ToLower(obj), a) {
				obj = strings.TrimSpace(obj[len(a):])
				changed = true
			}
		}
	}
	words := strings.Fields(obj)
	if len(words) > 6 {
		words = words[:6]
	}
	// The cut at six words, or a date taken out, can leave the phrase
	// hanging on a function word ("helpful responses from 3 members in").
	for len(words) > 0 && danglingWords[strings.ToLower(words[len(words)-1])] {
		words = words[:len(words)-1]
	}
	return strings.Trim(strings.Join(words, " "), "'\"")
}

// danglingWords cannot end an object phrase.
var danglingWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "for": true, "in": true, "on": true, "at": true,
	"by": true, "with": true, "from": true, "like": true, "as": true, "and": true, "or": true, "but": true,
	"about": true, "into": true, "than": true, "that": true, "this": true, "my": true, "your": true, "his": true,
	"her": true, "their": true, "our": true, "its": true, "some": true, "which": true, "who": true, "so": true,
	"because": true, "while": true, "when": true, "if": true, "every": true, "each": true,
}

// stopNames are capitalized words that are not names: sentence openers,
// interjections and pronouns.
var stopNames = map[string]bool{
	"the": true, "a": true, "an": true, "my": true, "we": true, "it": true, "this": true, "that": true,
	"these": true, "those": true, "hey": true, "hi": true, "hello": true, "yeah": true, "yes": true,
	"no": true, "oh": true, "wow": true, "thanks": true, "thank": true, "so": true, "and": true, "but": true,
	"well": true, "what": true, "how": true, "when": true, "where": true, "why": true, "who": true,
	"do": true, "did": true, "have": true, "has": true, "just": true, "also": true, "sure": true,
	"great": true, "good": true, "nice": true, "awesome": true, "cool": true, "sounds": true, "you": true,
	"he": true, "she": true, "they": true, "his": true, "her": true, "their": true, "our": true, "your": true,
	"i": true, "me": true, "us": true, "if": true, "or": true, "as": true, "at": true, "in": true, "on": true,
	"for": true, "to": true, "of": true, "by": true, "with": true, "from": true, "is": true, "are": true,
	"was": true, "were": true, "be": true, "been": true, "can": true, "could": true, "would": true,
	"should": true, "will": true, "let": true, "lets": true, "let's": true, "ok": true, "okay": true,
	"absolutely": true, "definitely": true, "totally": true, "really": true, "haha": true, "lol": true,
	"congrats": true, "congratulations": true, "amazing": true, "love": true, "glad": true, "sorry": true,
	"here": true, "there": true, "not": true, "all": true, "any": true, "some": true, "one": true, "thats": true,
	"it's": true, "that's": true, "i'm": true, "i've": true, "don't": true, "dont": true, "mom": true,
	"dad": true, "happy": true, "please": true, "maybe": true, "by the way": true, "btw": true,
}

func isStopName(w string) bool { return stopNames[strings.ToLower(w)] }

func isPronoun(s string) bool {
	switch strings.ToLower(s) {
	case "it", "this", "that", "them", "him", "her", "you", "me", "us", "myself", "one", "something",
		"everything", "anything", "things", "stuff", "there", "here", "what", "doing", "to", "it all":
		return true
	}
	return false
}

// isTemporalWord reports month and weekday names, which are capitalized but
// not entities.
func isTemporalWord(s string) bool {
	switch s {
	case "january", "february", "march", "april", "may", "june", "july", "august", "september",
		"october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
		"saturday", "sunday", "today", "tomorrow", "yesterday", "christmas eve":
		return true
	}
	return false
}
