// Package terms turns text into the terms Lore's BM25 indexes count: the
// terms SQLite's FTS5 tokenizer "porter unicode61 remove_diacritics 2" made
// when the embedded index ranked with FTS5, so that "dinners" finds "dinner"
// and "cafe" finds "café". The embedded index (graph/sqlite) and the
// Weaviate index (which has no English stemmer) both analyze documents and
// queries with it, so the two backends match the same documents.
package terms

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Stemming bounds, as in FTS5's porter tokenizer: shorter and longer tokens,
// and tokens with anything but a-z, pass through unstemmed.
const (
	minStemLen = 3
	maxStemLen = 64
)

// Analyze case-folds text, removes Latin diacritics, splits it into tokens
// (runs of letters, digits and private-use characters; everything else,
// including marks outside the combining diacriticals, separates) and stems
// each token with Porter's algorithm. Runs of Chinese and Japanese
// characters become overlapping character bigrams instead, Traditional
// characters folded to Simplified (cjk.go). It
// returns the terms in order, repeats included. For every word of
// testdata/fts5_porter.tsv it gives the term FTS5 gives.
func Analyze(text string) []string {
	var out []string
	each(text, func(term string) { out = append(out, term) })
	return out
}

// Joined returns the terms of Analyze separated by single spaces, the form
// a whitespace tokenizer splits back into the same terms.
func Joined(text string) string {
	var out strings.Builder
	each(text, func(term string) {
		if out.Len() > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(term)
	})
	return out.String()
}

// each calls fn with every term of text, in order.
func each(text string, fn func(term string)) {
	var tok, run []rune
	flush := func() {
		if len(tok) > 0 {
			fn(stemToken(string(tok)))
			tok = tok[:0]
		}
		if len(run) > 0 {
			emitBigrams(run, fn)
			run = run[:0]
		}
	}
	for _, r := range norm.NFC.String(strings.ToValidUTF8(text, " ")) {
		r = foldWidth(r)
		switch {
		case isCJK(r):
			// A CJK run ends a Latin token and a Latin token ends a CJK
			// run: 「我在Google工作」 → 我在 google 工作.
			if len(tok) > 0 {
				flush()
			}
			run = append(run, foldScript(r))
		case isCombiningDiacritic(r):
			// Part of the token, and removed with the diacritics.
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			if len(run) > 0 {
				flush()
			}
			tok = appendFolded(tok, foldCase(r))
		default:
			flush()
		}
	}
	flush()
}

// isCombiningDiacritic reports the combining diacritical marks (U+0300 to
// U+036F), which remove_diacritics drops from inside a token. FTS5 treats
// marks of other blocks, such as Devanagari vowel signs, as separators.
func isCombiningDiacritic(r rune) bool {
	return r >= 0x0300 && r <= 0x036F
}

// foldCase maps a letter to its case-folded form, as FTS5's unicode61
// tokenizer does: lower case, and variant forms to the usual letter ("ς" →
// "σ", "µ" → "μ", "ſ" → "s"). Turkish dotless ı has no folding and stays.
func foldCase(r rune) rune {
	if r == 'ı' {
		return r
	}
	return unicode.ToLower(unicode.ToUpper(r))
}

// appendFolded appends r without its diacritics if it is a Latin letter
// ("é" → "e", "ß" stays): the letter is decomposed and its combining marks
// dropped. Letters of other scripts are kept whole, as FTS5's
// remove_diacritics does, since their marks can carry meaning.
func appendFolded(tok []rune, r rune) []rune {
	if r < 0x00C0 || !unicode.Is(unicode.Latin, r) {
		return append(tok, r)
	}
	n := len(tok)
	for _, d := range norm.NFD.String(string(r)) {
		if !unicode.Is(unicode.Mn, d) {
			tok = append(tok, d)
		}
	}
	if len(tok) == n {
		return append(tok, r)
	}
	return tok
}

// stemToken stems a token of a stemmable length in bytes. Like FTS5's
// porter tokenizer it works on bytes: only a, e, i, o, u (and y after a
// consonant) are vowels, so digits and non-ASCII letters count as consonants
// ("1990s" → "1990", "straße" → "straß").
func stemToken(tok string) string {
	if len(tok) < minStemLen || len(tok) > maxStemLen {
		return tok
	}
	return porterStem(tok)
}

// porterStem implements M.F. Porter's suffix-stripping algorithm ("An
// algorithm for suffix stripping", 1980), steps 1a to 5b, with the two
// later revisions FTS5 also has: "bli" → "ble" and "logi" → "log" in step 2.
// As in FTS5, a suffix matches only when a stem is left before it ("sses"
// stays "sse"). w is a lower-case token of at least three bytes.
func porterStem(w string) string {
	s := stemmer{b: []byte(w)}
	s.step1ab()
	if len(s.b) > 1 {
		s.step1c()
		s.step2()
		s.step3()
		s.step4()
		s.step5()
	}
	return string(s.b)
}

// stemmer holds the word being stemmed. j marks the end of the stem (index
// of its last byte plus one) after a suffix has matched in ends.
type stemmer struct {
	b []byte
	j int
}

// cons reports whether b[i] is a consonant: not a vowel, and y only when
// it follows a vowel or starts the word.
func (s *stemmer) cons(i int) bool {
	switch s.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !s.cons(i-1)
	}
	return true
}

// measure returns m for b[:end]: the number of vowel-consonant sequences
// in [C](VC)^m[V].
func (s *stemmer) measure(end int) int {
	n, i := 0, 0
	for i < end && s.cons(i) {
		i++
	}
	for i < end {
		for i < end && !s.cons(i) {
			i++
		}
		if i >= end {
			break
		}
		for i < end && s.cons(i) {
			i++
		}
		n++
	}
	return n
}

// vowelIn reports whether b[:end] contains a vowel.
func (s *stemmer) vowelIn(end int) bool {
	for i := 0; i < end; i++ {
		if !s.cons(i) {
			return true
		}
	}
	return false
}

// doubleCons reports whether b[:end] ends with a double consonant. Only
// ASCII letters count, so that undoubling never cuts a UTF-8 sequence.
func (s *stemmer) doubleCons(end int) bool {
	return end >= 2 && s.b[end-1] == s.b[end-2] && s.b[end-1] >= 'a' && s.b[end-1] <= 'z' && s.cons(end-1)
}

// cvc reports whether b[:end] ends consonant-vowel-consonant with the last
// consonant not w, x or y (hop, not snow).
func (s *stemmer) cvc(end int) bool {
	if end < 3 || !s.cons(end-1) || s.cons(end-2) || !s.cons(end-3) {
		return false
	}
	switch s.b[end-1] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

// ends reports whether the word ends with suffix and has a stem before it,
// setting j to where the suffix starts.
func (s *stemmer) ends(suffix string) bool {
	if len(suffix) >= len(s.b) || string(s.b[len(s.b)-len(suffix):]) != suffix {
		return false
	}
	s.j = len(s.b) - len(suffix)
	return true
}

// setTo replaces the matched suffix with repl.
func (s *stemmer) setTo(repl string) {
	s.b = append(s.b[:s.j], repl...)
}

// replaceIf replaces the matched suffix with repl when the stem's measure
// is positive.
func (s *stemmer) replaceIf(repl string) {
	if s.measure(s.j) > 0 {
		s.setTo(repl)
	}
}

// step1ab removes plurals and -ed or -ing: caresses → caress, ponies → poni,
// agreed → agree, hopping → hop, filing → file.
func (s *stemmer) step1ab() {
	if s.b[len(s.b)-1] == 's' {
		switch {
		case s.ends("sses"):
			s.b = s.b[:len(s.b)-2]
		case s.ends("ies"):
			s.setTo("i")
		case len(s.b) >= 2 && s.b[len(s.b)-2] != 's':
			s.b = s.b[:len(s.b)-1]
		}
	}
	if s.ends("eed") {
		if s.measure(s.j) > 0 {
			s.b = s.b[:len(s.b)-1]
		}
		return
	}
	if !((s.ends("ed") || s.ends("ing")) && s.vowelIn(s.j)) {
		return
	}
	s.b = s.b[:s.j]
	end := len(s.b)
	switch {
	case s.ends("at"), s.ends("bl"), s.ends("iz"):
		s.b = append(s.b, 'e')
	case s.doubleCons(end):
		switch s.b[end-1] {
		case 'l', 's', 'z':
		default:
			s.b = s.b[:end-1]
		}
	case s.measure(end) == 1 && s.cvc(end):
		s.b = append(s.b, 'e')
	}
}

// step1c turns a final y into i when the stem has a vowel: happy → happi.
func (s *stemmer) step1c() {
	if s.ends("y") && s.vowelIn(s.j) {
		s.b[len(s.b)-1] = 'i'
	}
}

// suffixRule maps a suffix to its replacement.
type suffixRule struct{ suffix, repl string }

// step2Rules are tried in order; the first suffix that matches decides,
// whether or not its measure condition holds.
var step2Rules = []suffixRule{
	{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"},
	{"izer", "ize"}, {"bli", "ble"}, {"alli", "al"}, {"entli", "ent"},
	{"eli", "e"}, {"ousli", "ous"}, {"ization", "ize"}, {"ation", "ate"},
	{"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"},
	{"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
	{"logi", "log"},
}

var step3Rules = []suffixRule{
	{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
	{"ical", "ic"}, {"ful", ""}, {"ness", ""},
}

// step2 maps double suffixes to single ones: relational → relate.
func (s *stemmer) step2() { s.applyFirst(step2Rules) }

// step3 strips -ful, -ness and the like: hopeful → hope.
func (s *stemmer) step3() { s.applyFirst(step3Rules) }

func (s *stemmer) applyFirst(rules []suffixRule) {
	for _, r := range rules {
		if s.ends(r.suffix) {
			s.replaceIf(r.repl)
			return
		}
	}
}

// step4Suffixes are removed when the stem's measure exceeds one. Where one
// suffix ends another (ement, ment, ent), the longer is listed first and the
// first match decides.
var step4Suffixes = []string{
	"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
}

// step4 strips -ant, -ence and the like: revival → reviv.
func (s *stemmer) step4() {
	for _, suf := range step4Suffixes {
		if !s.ends(suf) {
			continue
		}
		if suf == "ion" && (s.j == 0 || (s.b[s.j-1] != 's' && s.b[s.j-1] != 't')) {
			// -ion goes only after s or t; otherwise nothing is removed.
			return
		}
		if s.measure(s.j) > 1 {
			s.b = s.b[:s.j]
		}
		return
	}
}

// step5 removes a final -e and reduces a final -ll: probate → probat,
// controll → control.
func (s *stemmer) step5() {
	end := len(s.b)
	if s.b[end-1] == 'e' {
		m := s.measure(end - 1)
		if m > 1 || (m == 1 && !s.cvc(end-1)) {
			s.b = s.b[:end-1]
			end--
		}
	}
	if s.b[end-1] == 'l' && s.doubleCons(end) && s.measure(end) > 1 {
		s.b = s.b[:end-1]
	}
}
