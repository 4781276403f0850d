package profile

import (
	_ "embed"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// KeyOwns is the profile key of the things a user has (devices, gear,
// furniture, rooms of their home): a multi-valued key fed by possession
// statements ("my Sony A7R IV", "I recently bought a new utensil holder").
const KeyOwns = "owns"

// possessionConfidence is the confidence of an owns entry: the user said
// it, but "my X" is a weaker statement than "I'm vegetarian".
const possessionConfidence = 0.8

//go:embed data/possessions.txt
var possessionsTable string

// possessionHeads are data/possessions.txt, parsed once.
var possessionHeads = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for line := range strings.Lines(possessionsTable) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out[strings.ToLower(line)] = true
	}
	return out
})

// possessionCue finds where a possession's noun phrase starts: after "my",
// or after a verb of having or getting and its article.
// It is matched against asciiLower of the sentence (no (?i): faster, and
// the offsets stay those of the sentence).
var possessionCue = regexp.MustCompile(`\b(?:my|i\s+(?:just\s+|recently\s+|finally\s+)?(?:have|own|bought|got|purchased|ordered|upgraded\s+to)\s+(?:a|an|two|some|this|these)|i've\s+(?:just\s+|recently\s+)?(?:got|bought|purchased)\s+(?:a|an|two|some))\s+`)

// npToken returns the word rest starts with, "" when it starts with none:
// letters and digits, with the marks of a model name inside (24-70mm,
// f/2.8).
func npToken(rest string) string {
	n := 0
	for i, r := range rest {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !ok && (i == 0 || !strings.ContainsRune("/.+-", r)) {
			break
		}
		n = i + utf8.RuneLen(r)
	}
	return rest[:n]
}

// asciiLower lower-cases the ASCII letters of s, keeping every byte
// offset.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// phraseEnd are the words that end a noun phrase: function words, verbs
// of being and having, adverbs of time.
var phraseEnd = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but nor so yet for with without in on at of from to into onto by about
		as than then that which who whom whose what when where while why how if is are was were be been being am has have
		had do does did can could will would should shall may might must not no it its this these those there here i you
		he she we they me him her us them my your our their since because after before during until up down out over under
		again too also very really lately now today tonight yesterday tomorrow recently still just already soon ever
		never always often sometimes keeps kept seems seemed feels felt looks looked`) {
		phraseEnd[w] = true
	}
}

// leadingDrop are the words dropped from a possession's front: they say
// nothing about what it is.
var leadingDrop = map[string]bool{"new": true, "current": true, "old": true, "own": true, "other": true, "brand": true, "brand-new": true}

// focalLength is a lens's focal length: 50mm, 24-70mm.
var focalLength = regexp.MustCompile(`^\d+(?:-\d+)?mm$`)

// modelWord reports whether tok, as written, names a product model: an
// upper-case letter and a digit (A7R, X100V, Active2), or a focal length;
// not an ordinal or a measure ("2nd", "10-day").
func modelWord(tok string) bool {
	var upper, digit bool
	for _, r := range tok {
		upper = upper || unicode.IsUpper(r)
		digit = digit || unicode.IsDigit(r)
	}
	return (upper && digit) || focalLength.MatchString(tok)
}

// isHead reports whether tok ends a possession: a head noun of
// data/possessions.txt (plural "s" stripped), or a product model.
func isHead(tok string) bool {
	heads := possessionHeads()
	w := strings.ToLower(tok)
	if heads[w] || modelWord(tok) {
		return true
	}
	if s, ok := strings.CutSuffix(w, "es"); ok && heads[s] {
		return true
	}
	s, ok := strings.CutSuffix(w, "s")
	return ok && heads[s]
}

// possessions returns the owns values sentence s states: after each cue,
// the words up to the first that ends a noun phrase, cut after the last
// possession head among them and the capitalised words of a name right
// after it (at most five words). A phrase holding a
// possessive ("my sister's car") is someone else's and is skipped, as is
// one a block pattern before it cancels.
func (r *Rules) possessions(s string) []string {
	var out []string
	for _, loc := range possessionCue.FindAllStringIndex(asciiLower(s), -1) {
		rest := s[loc[1]:]
		var words []string
		last := -1
		for len(words) < 5 {
			rest = strings.TrimLeft(rest, " \t")
			tok := npToken(rest)
			if tok == "" {
				break
			}
			w := strings.ToLower(strings.TrimRight(tok, ".-/+"))
			if phraseEnd[w] || strings.Contains(w, "'") {
				break
			}
			rest = rest[len(tok):]
			if strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "’") {
				last = -1 // "my sister's car": not the user's
				break
			}
			words = append(words, w)
			// A head, or a capitalised word right after one, which
			// continues a product's name ("Sony A7R IV").
			if isHead(strings.TrimRight(tok, ".-/+")) || (last >= 0 && last == len(words)-2 && unicode.IsUpper([]rune(tok)[0])) {
				last = len(words) - 1
			}
			if !strings.HasPrefix(rest, " ") {
				break // punctuation ends the phrase
			}
		}
		if last < 0 || slices.ContainsFunc(r.block, func(b *regexp.Regexp) bool { return b.MatchString(s[:loc[0]]) }) {
			continue
		}
		words = words[:last+1]
		for len(words) > 1 && leadingDrop[words[0]] {
			words = words[1:]
		}
		if len(words) == 1 && leadingDrop[words[0]] {
			continue
		}
		v := strings.Join(words, " ")
		if !r.stop[v] && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// KeyIdentity is the profile key of how users describe themselves ("As a
// Sony camera user, ...").
const KeyIdentity = "identity"

// selfDescription is a sentence opening with "As a(n) X," where X is at
// most four words: the user saying what they are.
var selfDescription = regexp.MustCompile(`(?i)^\s*as\s+(?:a|an)\s+([a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3})\s*,`)

// identityEntries returns the explicit identity entry of a sentence that
// opens with a self-description, but for the idioms among the stop values
// ("as a result,").
func (r *Rules) identityEntries(s string, ev []string, at time.Time) []lore.ProfileEntry {
	m := selfDescription.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	v := strings.ToLower(strings.Join(strings.Fields(m[1]), " "))
	if r.stop[v] {
		return nil
	}
	return []lore.ProfileEntry{{Key: KeyIdentity, Value: v, Confidence: possessionConfidence,
		Source: lore.ProfileExplicit, Evidence: ev, UpdatedAt: at}}
}

// ownsEntries returns the explicit owns entries of one sentence.
func (r *Rules) ownsEntries(s string, ev []string, at time.Time) []lore.ProfileEntry {
	var out []lore.ProfileEntry
	for _, v := range r.possessions(s) {
		out = append(out, lore.ProfileEntry{Key: KeyOwns, Value: v, Confidence: possessionConfidence,
			Source: lore.ProfileExplicit, Evidence: ev, UpdatedAt: at})
	}
	return out
}
