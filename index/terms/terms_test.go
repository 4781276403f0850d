package terms

import (
	"os"
	"strings"
	"testing"
)

func TestPorterStem(t *testing.T) {
	// Examples from Porter's 1980 paper, step by step, and a few whole words.
	tests := []struct{ in, want string }{
		// Step 1a.
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "ti"}, {"caress", "caress"}, {"cats", "cat"},
		// Step 1b.
		{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"},
		{"motoring", "motor"}, {"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"},
		{"sized", "size"}, {"hopping", "hop"}, {"tanned", "tan"}, {"falling", "fall"},
		{"hissing", "hiss"}, {"fizzed", "fizz"}, {"failing", "fail"}, {"filing", "file"},
		// Step 1c.
		{"happy", "happi"}, {"sky", "sky"},
		// Step 2.
		{"relational", "relat"}, {"conditional", "condit"}, {"rational", "ration"},
		{"valenci", "valenc"}, {"hesitanci", "hesit"}, {"digitizer", "digit"},
		{"conformabli", "conform"}, {"radicalli", "radic"}, {"differentli", "differ"},
		{"vileli", "vile"}, {"analogousli", "analog"}, {"vietnamization", "vietnam"},
		{"predication", "predic"}, {"operator", "oper"}, {"feudalism", "feudal"},
		{"decisiveness", "decis"}, {"hopefulness", "hope"}, {"callousness", "callous"},
		{"formaliti", "formal"}, {"sensitiviti", "sensit"}, {"sensibiliti", "sensibl"},
		// Step 3.
		{"triplicate", "triplic"}, {"formative", "form"}, {"formalize", "formal"},
		{"electriciti", "electr"}, {"electrical", "electr"}, {"hopeful", "hope"}, {"goodness", "good"},
		// Step 4.
		{"revival", "reviv"}, {"allowance", "allow"}, {"inference", "infer"}, {"airliner", "airlin"},
		{"gyroscopic", "gyroscop"}, {"adjustable", "adjust"}, {"defensible", "defens"},
		{"irritant", "irrit"}, {"replacement", "replac"}, {"adjustment", "adjust"},
		{"dependent", "depend"}, {"adoption", "adopt"}, {"homologou", "homolog"},
		{"communism", "commun"}, {"activate", "activ"}, {"angulariti", "angular"},
		{"homologous", "homolog"}, {"effective", "effect"}, {"bowdlerize", "bowdler"},
		// Step 5.
		{"probate", "probat"}, {"rate", "rate"}, {"cease", "ceas"}, {"controll", "control"}, {"roll", "roll"},
		// Words Lore sees.
		{"adopted", "adopt"}, {"adopting", "adopt"}, {"dogs", "dog"}, {"lives", "live"}, {"living", "live"},
		{"generalizations", "gener"}, {"oscillators", "oscil"}, {"running", "run"}, {"meeting", "meet"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := porterStem(tt.in); got != tt.want {
				t.Fatalf("porterStem(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestJoined(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "stems and lower-cases", in: "Alice ADOPTED two Dogs", want: "alic adopt two dog"},
		{name: "punctuation splits", in: "Tom-Tom (really) isn't", want: "tom tom realli isn t"},
		{name: "diacritics fold before stemming", in: "Café Crème, naïve résumés", want: "cafe creme naiv resum"},
		{name: "combining marks fold too", in: "cafe\u0301", want: "cafe"},
		{name: "short words pass through", in: "I am at it", want: "i am at it"},
		{name: "digits are kept, mixed tokens not stemmed", in: "May 2023 covid19 cases", want: "mai 2023 covid19 case"},
		{name: "other scripts kept", in: "猫 кошки", want: "猫 кошки"},
		// The cases below are what SQLite 3.40's FTS5 tokenizer makes of them.
		{name: "greek accents stay, sigma folds", in: "Ελλάδα ΟΔΟΣ", want: "ελλάδα οδοσ"},
		{name: "devanagari marks separate", in: "हिंदी भाषा", want: "ह द भ ष"},
		{name: "private use is a token character", in: "x\ue000y", want: "x\ue000y"},
		{name: "dotted and dotless i", in: "İstanbul ılık", want: "istanbul ılık"},
		{name: "compatibility forms stay", in: "Ǆemal ﬁne", want: "ǆemal ﬁne"},
		{name: "only punctuation", in: `"*():^-+`, want: ""},
		{name: "invalid utf8", in: "bad\xffbytes", want: "bad byte"},
		{name: "query syntax is text", in: `cat AND OR NOT NEAR(tom, 2)`, want: "cat and or not near tom 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Joined(tt.in); got != tt.want {
				t.Fatalf("Joined(%q)=%q, want %q", tt.in, got, tt.want)
			}
			if got := strings.Join(Analyze(tt.in), " "); got != tt.want {
				t.Fatalf("Analyze(%q) joined=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestAnalyzeMatchesFTS5 checks Analyze against the terms SQLite's FTS5
// tokenizer, which the embedded index used to rank with, makes of every
// word in testdata/fts5_porter.tsv but those with Chinese, Japanese or
// full-width characters.
func TestAnalyzeMatchesFTS5(t *testing.T) {
	data, err := os.ReadFile("testdata/fts5_porter.tsv")
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	var n, bad int
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad fixture line %q", line)
		}
		if departsFromFTS5(word) {
			// Chinese and Japanese runs are bigrams, full-width
			// letters ASCII (cjk.go): on purpose, TestCJKBigrams.
			continue
		}
		n++
		if got := Joined(word); got != want {
			bad++
			if bad <= 100 {
				t.Errorf("Joined(%q)=%q, FTS5 makes %q", word, got, want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("fixture has %d words, want at least 1000", n)
	}
	if bad > 0 {
		t.Errorf("%d of %d words differ from FTS5", bad, n)
	}
}
