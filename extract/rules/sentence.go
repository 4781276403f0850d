package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/lore-memory/lore/temporal"
)

// voice says who is speaking and to whom, for resolving pronouns.
type voice struct {
	name  string // the speaker's name, or "user"
	other string // whom "you" means: the other speaker, or ""
	// noDates is set when the sentence holds no date expression, so
	// standalone need not look for one (temporal.Parse is the costliest
	// step of extraction).
	noDates bool
}

var wordRe = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'’-]*`)

// lowerWords returns the words of s, lower case and without punctuation.
func lowerWords(s string) []string {
	ws := wordRe.FindAllString(s, -1)
	for i, w := range ws {
		ws[i] = strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	}
	return ws
}

// stripOpeners drops leading discourse fillers ("Yeah,", "Oh wow!", "Haha")
// and a leading address to the other speaker ("Jon, I …"). A filler is
// dropped when punctuation follows it or the next word opens a clause about
// the speaker ("So I went…").
func stripOpeners(s string, v voice) string {
	for range 6 {
		s = strings.TrimLeftFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || r == ',' || r == '-' || r == '–' || r == '—' || r == '…'
		})
		locs := wordRe.FindAllStringIndex(s, 8)
		if len(locs) == 0 {
			return ""
		}
		words := make([]string, len(locs))
		for i, l := range locs {
			words[i] = strings.ToLower(strings.ReplaceAll(s[l[0]:l[1]], "’", "'"))
		}
		n := fillers.prefix(words)
		if n == 0 && v.other != "" && strings.EqualFold(words[0], v.other) {
			n = 1
		}
		if n == 0 {
			return s
		}
		end := locs[n-1][1]
		rest := s[end:]
		trimmed := strings.TrimLeft(rest, " ")
		punct := len(trimmed) > 0 && strings.ContainsRune(",.!;:-–—…", rune(trimmed[0]))
		next := ""
		if n < len(words) {
			next = words[n]
		}
		if !punct && v.other != "" && strings.EqualFold(next, v.other) {
			// "Yeah John, …": the address goes with the filler.
			s = rest
			continue
		}
		// "ok moved to Leeds": a filler before a verb whose "I" was
		// left out goes too.
		if !punct && next != "i" && next != "my" && next != "we" && rest != "" && !leftOutSubject(trimmed) {
			return s
		}
		s = rest
	}
	return s
}

var firstPerson = map[string]bool{"i": true, "me": true, "my": true, "mine": true, "myself": true, "we": true, "us": true, "our": true, "ours": true, "i'm": true, "i've": true, "i'd": true, "i'll": true, "we're": true, "we've": true}

func hasFirstPerson(words []string) bool {
	for _, w := range words {
		if firstPerson[w] {
			return true
		}
	}
	return false
}

// informative reports whether a sentence, fillers stripped, may state a
// fact about the speaker: not a question, not a pleasantry, not addressed
// to the other speaker, and about the speaker (first person or a sentence
// whose "I" was left out).
func informative(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, "?") {
		return false
	}
	words := lowerWords(s)
	// "I'm vegan.", "I'm 29.": counted with the contraction expanded.
	if len(lowerWords(expandContractions(s))) < 3 {
		return false
	}
	if n := pleasantries.prefix(words); n > 0 && (!hasFirstPerson(words[n:]) || len(words) <= 5) {
		return false
	}
	switch words[0] {
	case "let's", "lets", "let", "please", "don't", "remember", "keep", "make", "try", "imagine":
		// Exhortations and advice state no fact, unless the speaker goes
		// on to say what they did ("Don't judge me but I switched …").
		if !slices.Contains(words[1:], "i") {
			return false
		}
	case "you", "your", "you're", "you've", "you'll", "you'd", "what", "how", "why", "who", "where", "when", "which", "do", "did", "does", "is", "are", "can", "could", "would", "will", "should", "have", "has":
		return false
	}
	if leftOutSubject(s) {
		return true
	}
	k := -1
	for i, w := range words {
		if firstPerson[w] {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	// "We can do this", "I'll let you know": wishes and promises, not facts.
	return k+1 >= len(words) || !modals[words[k+1]]
}

// reports says whether a sentence reports something that happened or is
// going on for the speaker, not only how they feel about something: a verb
// in the past ("I went", "we adopted", "I've been"), or in the progressive
// ("I'm training"), close after a first-person subject.
func reports(s string) bool {
	words := lowerWords(expandContractions(s))
	for i, w := range words {
		if !firstPerson[w] {
			continue
		}
		for j := i + 1; j < len(words) && j <= i+4; j++ {
			v := words[j]
			if modals[v] || otherSubjects[v] {
				break
			}
			if v == "used" {
				return true
			}
			if (pastForms[v] && !modals[v] && v != "let" && v != "read" && v != "need") || (strings.HasSuffix(v, "ed") && !strings.HasSuffix(v, "eed") && len(v) > 4) {
				return true
			}
			if strings.HasSuffix(v, "ing") && len(v) > 4 && j > i+1 && (words[j-1] == "am" || words[j-1] == "are" || words[j-1] == "been" || adverbs[words[j-1]]) {
				return true
			}
		}
	}
	return false
}

var modals = listSet(strings.Fields(`can could should would might must will shall can't couldn't wouldn't shouldn't won't`))

// reaction reports whether a sentence reacts to what the other speaker
// said: a pleasantry or evaluation with nothing about the speaker ("Wow,
// that's amazing!", "Sounds fun", "Nice!"). Greetings and thanks open news
// as often as not and do not count.
func reaction(raw string, v voice) bool {
	words := lowerWords(raw)
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "hey", "hi", "hello", "thanks", "thank", "yeah", "yes", "yep", "hiya":
		return false
	}
	s := stripOpeners(raw, v)
	rest := lowerWords(s)
	if len(rest) == 0 {
		return true
	}
	return pleasantries.prefix(rest) > 0 && !hasFirstPerson(rest)
}

// pastForms are irregular past tenses and other verb forms that take no -s
// after a third-person subject.
var pastForms = listSet(strings.Fields(`was were had did went got made took saw felt found gave knew left lost met ran said
sent spent told thought bought brought came became began built caught chose drew drove ate fell forgot grew heard held
kept led let put read rode sang sat slept spoke stood swam taught threw understood woke won wore wrote hung hit cut set
quit shut paid sold broke froze stole retook undertook overtook mistook forgave overcame stuck struck fought flew meant hurt lent bent burnt learnt dreamt been done gone seen known
will would can could should might must may shall used`))

// adverbs may stand between a subject and its verb.
var adverbs = listSet(strings.Fields(`also just really still never always usually often finally recently actually even only
already sometimes once now then totally definitely absolutely probably mostly kinda sorta truly seriously literally
currently honestly personally barely hardly rarely no longer not almost nearly basically`))

// thirdPerson conjugates a verb for a third-person singular subject.
func thirdPerson(w string) string {
	lw := strings.ToLower(w)
	switch lw {
	case "am", "'m":
		return "is"
	case "have":
		return "has"
	case "do":
		return "does"
	case "don't":
		return "doesn't"
	case "haven't":
		return "hasn't"
	case "are":
		return "is"
	case "were":
		return "was"
	case "aren't":
		return "isn't"
	case "weren't":
		return "wasn't"
	}
	if pastForms[lw] || strings.HasSuffix(lw, "ed") || strings.HasSuffix(lw, "n't") || strings.ContainsAny(lw, "'’0123456789") || len(lw) < 2 {
		return w
	}
	switch {
	case strings.HasSuffix(lw, "y") && !strings.ContainsRune("aeiou", rune(lw[len(lw)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(lw, "s") || strings.HasSuffix(lw, "sh") || strings.HasSuffix(lw, "ch") || strings.HasSuffix(lw, "x") || strings.HasSuffix(lw, "z") || strings.HasSuffix(lw, "o"):
		return w + "es"
	}
	return w + "s"
}

// notVerbs follow a subject without being its verb.
var notVerbs = listSet(strings.Fields(`and or but to a an the of in on at for with so that this it my your our`))

// clausePreps put the name after them in a phrase of their own ("in Paris
// and I …").
var clausePreps = listSet(strings.Fields(`in at to from for with near on by of into`))

// standalone rewrites a sentence said by v so that it reads on its own: the
// speaker's first person becomes their name ("I" → "Caroline", "my" →
// "Caroline's", "we" → "Caroline and others"), "you" becomes the other
// speaker where known, a sentence whose "I" was left out gets it back, verbs
// after a resolved subject agree with it, and relative dates become dates
// ("yesterday" → "on 7 May 2023").
func standalone(s string, v voice, ref time.Time) string {
	s = strings.TrimSpace(s)
	if leftOutSubject(s) {
		s = restoreSubject(s, lowerWords(s))
	}
	if !v.noDates {
		s = resolveDates(s, ref)
	}
	locs := wordRe.FindAllStringIndex(s, -1)
	var b strings.Builder
	last := 0
	named := false
	conjugateNext := false
	for i, l := range locs {
		w := s[l[0]:l[1]]
		lw := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
		b.WriteString(s[last:l[0]])
		last = l[1]
		prev := ""
		if i > 0 {
			prev = strings.ToLower(s[locs[i-1][0]:locs[i-1][1]])
		}
		next := ""
		if i+1 < len(locs) {
			next = strings.ToLower(s[locs[i+1][0]:locs[i+1][1]])
		}
		prev2 := ""
		if i > 1 {
			prev2 = s[locs[i-2][0]:locs[i-2][1]]
		}
		// "Sam and I work": a plural subject; "I live in Paris and I
		// work": a place ends the first clause.
		afterPrep := i > 2 && clausePreps[strings.ToLower(s[locs[i-3][0]:locs[i-3][1]])]
		// "my teammates and I were": a plural verb says so too.
		plural := (prev == "and" || prev == "or") && (startsUpper(prev2) && prev2 != "I" && !afterPrep || next == "were" || next == "are") || next == "and"
		out := w
		conj := false
		switch {
		case conjugateNext && (adverbs[lw] || strings.HasSuffix(lw, "ly") && len(lw) > 4 || (lw == "sort" || lw == "kind") && next == "of" || lw == "of" && (prev == "sort" || prev == "kind")):
			// "Caroline really loves": the verb is further on.
			b.WriteString(w)
			continue
		case conjugateNext:
			conjugateNext = false
			if !notVerbs[lw] {
				out = thirdPerson(w)
			}
		case w == "I" || lw == "i":
			out, conj = v.name, !plural
			named = true
		case lw == "i'm":
			out = v.name + " is"
			named = true
		case lw == "i've":
			out = v.name + " has"
			named = true
		case lw == "i'd":
			out = v.name + " would"
			named = true
		case lw == "i'll":
			out = v.name + " will"
			named = true
		case lw == "me":
			out = v.name
			if named {
				out = "them"
			}
		case lw == "myself":
			out = "themselves"
			if !named {
				out = v.name
			}
		case lw == "my" || lw == "mine":
			out = possessive(v.name)
			if named && lw == "my" {
				out = "their"
			}
		case lw == "we" || lw == "us":
			out = v.name + " and others"
			if plural {
				out = v.name
			}
			named = true
		case lw == "we're":
			out = v.name + " and others are"
		case lw == "we've":
			out = v.name + " and others have"
		case lw == "our" || lw == "ours":
			out = possessive(v.name)
		case v.other != "" && (lw == "you" || lw == "yourself"):
			out = v.other
			conj = lw == "you" && (i == 0 || clauseOpeners[prev])
		case v.other != "" && (lw == "your" || lw == "yours"):
			out = possessive(v.other)
		case v.other != "" && lw == "you're":
			out = v.other + " is"
		case v.other != "" && lw == "you've":
			out = v.other + " has"
		case v.other != "" && lw == "you'll":
			out = v.other + " will"
		case v.other != "" && lw == "you'd":
			out = v.other + " would"
		}
		if i == 0 && out != v.name && out != v.other && !strings.HasPrefix(out, v.name) && !strings.HasPrefix(out, v.other) {
			out = capitalize(out)
		}
		b.WriteString(out)
		conjugateNext = conj
	}
	b.WriteString(s[last:])
	return tidy(b.String(), v)
}

// clauseOpeners start a clause whose subject comes next ("while you were
// winning", "when you try").
var clauseOpeners = listSet(strings.Fields(`and but so because if while when whenever since as after before until though although`))

func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

func capitalize(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// leftOutSubject reports whether a sentence opens with a verb whose subject
// "I" was left out ("Lost my job…", "Just got back…"), not with an adverb
// before another subject ("Also my wife…", "Still Nomsa…").
func leftOutSubject(s string) bool {
	locs := wordRe.FindAllStringIndex(s, 6)
	if len(locs) == 0 {
		return false
	}
	first := strings.ToLower(s[locs[0][0]:locs[0][1]])
	if !subjectless[first] {
		return false
	}
	// "Learning German has been tough": a gerund that is the subject of
	// its own verb, not "(I am) learning German".
	if strings.HasSuffix(first, "ing") && gerundSubjectRe.MatchString(s) {
		return false
	}
	for i, l := range locs {
		w := s[l[0]:l[1]]
		lw := strings.ToLower(w)
		if adverbs[lw] {
			continue
		}
		if i > 0 && (startsUpper(w) || notSubjectless[lw] || isTemporalWord(strings.TrimSuffix(lw, "s"))) {
			return false // "also sundays I'm at my dad's": no verb left out
		}
		if i > 0 && i+1 < len(locs) && subjectAux[strings.ToLower(s[locs[i+1][0]:locs[i+1][1]])] {
			return false // "also keto did not suit me": keto is the subject
		}
		if lw == "been" {
			// "Been practicing hard", not "Been a while".
			return i+1 < len(locs) && strings.HasSuffix(strings.ToLower(s[locs[i+1][0]:locs[i+1][1]]), "ing")
		}
		return true
	}
	return false
}

// gerundSubjectRe is a sentence whose opening -ing phrase is followed, in
// its first clause, by the verb it is the subject of.
var gerundSubjectRe = regexp.MustCompile(`(?i)^\p{L}+ing\b[^,;:.!?–—]*?\s(?:is|was|has|had|can|could|will|would|makes|made|keeps|kept|helps|helped|gives|gave|takes|took|feels|felt|seems|seemed|must|might|should)\b`)

// subjectAux are verbs that follow a sentence's own subject: after an
// opening adverb, the word before one is that subject.
var subjectAux = listSet(strings.Fields(`is was are were did does didn doesn isn wasn has had hasn will would can could`))

// notSubjectless are words that, after an opening adverb, start the
// sentence's own subject.
var notSubjectless = listSet(strings.Fields(`my i we our the a an his her their this that it you your he she they there`))

// restoreSubject gives back the "I" a chat sentence left out: "Lost my job"
// → "I lost my job", "Starting at Stripe" → "I am starting at Stripe".
func restoreSubject(s string, words []string) string {
	verb := ""
	for _, w := range words {
		if !adverbs[w] {
			verb = w
			break
		}
	}
	lead := "I "
	switch {
	case verb == "been":
		lead = "I have "
	case strings.HasSuffix(verb, "ing"):
		lead = "I am "
	}
	r := []rune(s)
	return lead + string(unicode.ToLower(r[0])) + string(r[1:])
}

var relativeDateRe = regexp.MustCompile(`(?i)\b(yesterday|today|tonight|tomorrow|ago|last|next|this)\b`)

// resolveDates replaces relative date expressions with the dates they name,
// so a fact read later still says when.
func resolveDates(s string, ref time.Time) string {
	if ref.IsZero() {
		return s
	}
	spans := temporal.Parse(s, ref)
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		if !relativeDateRe.MatchString(sp.Text) || sp.Offset+len(sp.Text) > len(s) {
			continue
		}
		days := sp.End.Sub(sp.Start).Hours() / 24
		var with string
		switch {
		case days <= 1:
			with = "on " + sp.Start.Format("2 January 2006")
		case days <= 2:
			with = "on the weekend of " + sp.Start.Format("2 January 2006")
		case days <= 7:
			with = "in the week of " + sp.Start.Format("2 January 2006")
		case days <= 31:
			with = "in " + sp.Start.Format("January 2006")
		case days <= 366 && !strings.Contains(strings.ToLower(sp.Text), "few"):
			with = "in " + sp.Start.Format("2006")
		default:
			continue
		}
		start := sp.Offset
		end := sp.Offset + len(sp.Text)
		// "Tomorrow's gonna be great" → "20 June 2023 is gonna be great".
		if rest := s[end:]; strings.HasPrefix(rest, "'s ") || strings.HasPrefix(rest, "’s ") {
			with = strings.TrimPrefix(strings.TrimPrefix(with, "on "), "in ")
			n := len("'s")
			if strings.HasPrefix(rest, "’s") {
				n = len("’s")
			}
			s = s[:start] + with + " is" + s[end+n:]
			continue
		}
		// "for next month" → "for March 2024", not "for in March 2024".
		before := strings.ToLower(s[:start])
		for _, p := range []string{"for ", "by ", "until ", "till ", "from ", "since ", "during ", "in ", "on ", "at ", "of "} {
			if strings.HasSuffix(before, p) {
				with = strings.TrimPrefix(strings.TrimPrefix(with, "on "), "in ")
				break
			}
		}
		s = s[:start] + with + s[sp.Offset+len(sp.Text):]
	}
	return s
}

var (
	spacePunctRe = regexp.MustCompile(`\s+([,.!;:])`)
	trailingRe   = regexp.MustCompile(`[\s,;:–—-]+$`)
)

// tidy trims what a rewritten sentence should not end with: an address to
// the other speaker (", Jon!"), emoticons and exclamation marks.
func tidy(s string, v voice) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimRight(s, "!?.… ")
	if v.other != "" {
		s = strings.TrimSuffix(s, ", "+v.other)
	}
	s = spacePunctRe.ReplaceAllString(s, "$1")
	s = trailingRe.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "!", ".")
	if s == "" {
		return ""
	}
	if !strings.HasPrefix(s, v.name) && (v.other == "" || !strings.HasPrefix(s, v.other)) {
		s = capitalize(s)
	}
	return s + "."
}

// factText is fmt.Sprintf with the subject's spacing kept tidy.
func factText(format string, args ...any) string {
	return strings.Join(strings.Fields(fmt.Sprintf(format, args...)), " ")
}

// impersonal reports whether a sentence's subject is something other than
// the speaker, who appears only later ("It reminds me of…", "That love
// keeps me going").
func impersonal(s string) bool {
	w := lowerWords(s)
	return len(w) > 0 && impersonalOpeners[w[0]]
}

var impersonalOpeners = listSet(strings.Fields(`it it's that that's this these those they they're there there's here's
nothing everything something such what being having seeing seems`))

// addressed reports whether a sentence speaks of the listener ("you").
func addressed(s string) bool {
	for _, w := range lowerWords(s) {
		if secondPerson[w] {
			return true
		}
	}
	return false
}

// otherSubjects start a clause about someone else: a verb after them is
// not the speaker's.
var otherSubjects = listSet(strings.Fields(`you you'll you're you've you'd he she they it he's she's they're it's that`))

var secondPerson = listSet(strings.Fields(`you your yours yourself yourselves you're you've you'll you'd`))
