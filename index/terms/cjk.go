package terms

import "unicode"

// Chinese and Japanese write words without spaces, so a run of their
// characters is not one term (as it was to FTS5's unicode61 tokenizer, which
// made 「我住在台北在台積電當工程師」 a single token no query matched). Analyze
// splits such a run into overlapping character bigrams, the scheme of
// Lucene's CJKBigramFilter: 「台積電」 → 台積 積電, and a run of one character
// is that character. A query's bigrams then match a document's wherever the
// same two characters stand side by side, whatever the word boundaries.
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
