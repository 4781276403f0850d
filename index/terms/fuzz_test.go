package terms

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzAnalyze: any text, valid UTF-8 or not, analyzes without panicking
// into non-empty, valid UTF-8 terms without separators, and Joined is those
// terms joined by spaces.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"My sister's dinners at the café", "Ünïcödé naïve façade", "running runs ran", "\xff\xfe broken", "",
		"東京に住んでいます", "a-b_c.d", strings.Repeat("x", 80), "ﬁ ligature", "İstanbul",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		terms := Analyze(text)
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) {
				t.Fatalf("Analyze(%q) gave term %q, want non-empty valid UTF-8", text, term)
			}
			if strings.IndexFunc(term, unicode.IsSpace) >= 0 {
				t.Fatalf("Analyze(%q) gave term %q holding a space", text, term)
			}
		}
		if got, want := Joined(text), strings.Join(terms, " "); got != want {
			t.Fatalf("Joined(%q)=%q, want %q", text, got, want)
		}
	})
}
