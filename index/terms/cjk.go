package terms

import (
	_ "embed"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chinese and Japanese write words without spaces, so a run of their
// characters is not one term (as it was to FTS5's unicode61 tokenizer, which
// made 「我住在台北在台積電當工程師」 a single token no query matched). Analyze
// splits such a run into overlapping character bigrams, the scheme of
// Lucene's CJKBigramFilter: 「台積電」 → 台積 積電, and a run of one character
// is that character. A query's bigrams then match a document's wherever the
// same two characters stand side by side, whatever the word boundaries.
// Traditional characters are folded to Simplified first (foldScript).
//
// Bigrams with the single characters too, and dictionary segmentation
// (github.com/go-ego/gse), were measured against this on fixtures/zh
// (index/terms/README.md): both find more with BM25 alone, but neither
// answers more questions with the whole pipeline, and gse takes 13 s and
// 200 MB to load its dictionaries and analyzes 16 times slower.

// isCJK reports the characters analyzed as bigrams: Han ideographs
// (Chinese characters, Japanese kanji), the Japanese kana, and the marks
// written inside such words (々 iteration, ー long vowel, 〆). Hangul keeps
// the word analysis: Korean separates words with spaces.
func isCJK(r rune) bool {
	switch {
	case r < 0x2E80:
		return false
	case r == 0x3005 || r == 0x3006 || r == 0x30FC:
		return true
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

// foldWidth maps the full-width forms of ASCII letters and digits (U+FF10 to
// U+FF5A), which Chinese and Japanese text uses beside its own characters,
// to ASCII: 「Ｇｏｏｇｌｅ」 is "google". Every other rune is returned as is.
func foldWidth(r rune) rune {
	switch {
	case r >= 0xFF10 && r <= 0xFF19, r >= 0xFF21 && r <= 0xFF3A, r >= 0xFF41 && r <= 0xFF5A:
		return r - 0xFF10 + '0'
	}
	return r
}

// t2sData is the Traditional-to-Simplified character fold, generated from
// OpenCC's dictionaries by scripts/cjk/gen_t2s.py (its header says from
// which package, under which license, and how).
//
//go:embed data/t2s.txt
var t2sData string

// t2s maps each Traditional character (and each Taiwan or Hong Kong variant)
// of data/t2s.txt to its Simplified form. It is built once when the package
// loads and only read after.
var t2s = mustParseFold(t2sData)

// parseFold reads lines of "source TAB target", one character each; '#'
// starts a comment line.
func parseFold(data string) (map[rune]rune, error) {
	m := make(map[rune]rune, 4200)
	for i, line := range strings.Split(data, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		src, dst, ok := strings.Cut(line, "\t")
		if !ok || utf8.RuneCountInString(src) != 1 || utf8.RuneCountInString(dst) != 1 {
			return nil, fmt.Errorf("t2s.txt line %d: %q is not one character, a tab and one character", i+1, line)
		}
		s, _ := utf8.DecodeRuneInString(src)
		d, _ := utf8.DecodeRuneInString(dst)
		m[s] = d
	}
	return m, nil
}

func mustParseFold(data string) map[rune]rune {
	m, err := parseFold(data)
	if err != nil {
		panic(err)
	}
	return m
}

// foldScript maps a Traditional Chinese character to its Simplified form
// (裡 → 里, 說 → 说, 臺 → 台) and returns every other rune as is, so that a
// query in one script matches a memory in the other: 「我妹妹住在哪里」 and
// 「我妹妹住在哪裡」 have the same bigrams. Where OpenCC gives a character
// several Simplified forms the first is used (乾 → 干). Characters that two
// scripts write alike, and Simplified ones, are unchanged; a few Traditional
// characters that Simplified text also uses fold too (著 → 着, in 著名 as in
// 看著), on queries and documents alike. Japanese kanji fold the same way.
func foldScript(r rune) rune {
	if s, ok := t2s[r]; ok {
		return s
	}
	return r
}

// emitBigrams calls fn with the bigrams of a run of CJK characters, or with
// the character itself when the run has one.
func emitBigrams(run []rune, fn func(term string)) {
	if len(run) == 1 {
		fn(string(run))
		return
	}
	for i := 0; i+1 < len(run); i++ {
		fn(string(run[i : i+2]))
	}
}

// CJKGrams returns the distinct substrings of minLen to maxLen characters
// of each run of CJK characters in text, in order: the strings that may be
// a name in text without spaces (「我妹妹小美搬到東京」 holds 小美 and 東京).
// Callers look them up as entity names.
func CJKGrams(text string, minLen, maxLen int) []string {
	var out []string
	seen := map[string]bool{}
	var run []rune
	flush := func() {
		for i := range run {
			for n := minLen; n <= maxLen && i+n <= len(run); n++ {
				if g := string(run[i : i+n]); !seen[g] {
					seen[g] = true
					out = append(out, g)
				}
			}
		}
		run = run[:0]
	}
	for _, r := range text {
		if isCJK(r) {
			run = append(run, r)
			continue
		}
		flush()
	}
	flush()
	return out
}
