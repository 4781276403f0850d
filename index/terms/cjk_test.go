package terms

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

func TestCJKBigrams(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "traditional run", in: "我住在台北", want: "我住 住在 在台 台北"},
		{name: "simplified run", in: "我在台积电工作。", want: "我在 在台 台积 积电 电工 工作"},
		{name: "punctuation ends a run", in: "攀岩，龍洞！", want: "攀岩 龍洞"},
		{name: "one character is itself", in: "猫", want: "猫"},
		{name: "latin inside chinese", in: "我在Google工作", want: "我在 googl 工作"},
		{name: "latin words stem inside chinese", in: "我喜歡Climbing和Running", want: "我喜 喜歡 climb 和 run"},
		{name: "numbers split runs", in: "程度大約5.11a", want: "程度 度大 大約 5 11a"},
		{name: "dates", in: "2023年5月8日", want: "2023 年 5 月 8 日"},
		{name: "full-width latin folds", in: "我在Ｇｏｏｇｌｅ工作，５樓", want: "我在 googl 工作 5 樓"},
		{name: "japanese kana and kanji", in: "東京タワーへ行きました", want: "東京 京タ タワ ワー ーへ へ行 行き きま まし した"},
		{name: "hangul keeps words", in: "서울에 살아요", want: "서울에 살아요"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Joined(tt.in); got != tt.want {
				t.Fatalf("Joined(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// legacyAnalyze is Analyze as it was before CJK runs became bigrams: the
// reference for text without CJK or full-width characters, which must
// analyze exactly as before (the English benchmark figures rest on it).
func legacyAnalyze(text string) []string {
	var out []string
	var tok []rune
	flush := func() {
		if len(tok) > 0 {
			out = append(out, stemToken(string(tok)))
			tok = tok[:0]
		}
	}
	for _, r := range norm.NFC.String(strings.ToValidUTF8(text, " ")) {
		switch {
		case isCombiningDiacritic(r):
		case unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r):
			tok = appendFolded(tok, foldCase(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

// TestLatinUnchanged checks that every message of the English relational
// fixture, and every word of the FTS5 fixture, analyzes as before.
func TestLatinUnchanged(t *testing.T) {
	var texts []string
	for _, path := range []string{"../../fixtures/relational/tune.json", "../../fixtures/relational/validate.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %s: %v", path, err)
		}
		var set struct {
			Users []struct {
				Sessions []struct {
					Messages []struct{ Content string }
				}
				Questions []struct{ Query string }
			}
		}
		if err := json.Unmarshal(data, &set); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, u := range set.Users {
			for _, s := range u.Sessions {
				for _, m := range s.Messages {
					texts = append(texts, m.Content)
				}
			}
			for _, q := range u.Questions {
				texts = append(texts, q.Query)
			}
		}
	}
	data, err := os.ReadFile("testdata/fts5_porter.tsv")
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if word, _, ok := strings.Cut(line, "\t"); ok && !departsFromFTS5(word) {
			texts = append(texts, word)
		}
	}
	if len(texts) < 1000 {
		t.Fatalf("%d texts, want at least 200", len(texts))
	}
	for _, text := range texts {
		if got, want := Analyze(text), legacyAnalyze(text); !slices.Equal(got, want) {
			t.Errorf("Analyze(%.60q) changed:\n got %q\nwant %q", text, got, want)
		}
	}
}

// departsFromFTS5 reports text with characters Analyze treats otherwise
// than FTS5 did: CJK (bigrams) and full-width ASCII (folded).
func departsFromFTS5(text string) bool {
	for _, r := range text {
		if isCJK(r) || foldWidth(r) != r {
			return true
		}
	}
	return false
}

func BenchmarkAnalyze(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"english", "I live in Paris and I work at Google. My sister Emma moved to Rome last week."},
		{"chinese", "我住在台北，在台積電當工程師。我妹妹小美上個月搬到東京了。我喜歡攀岩，常去龍洞，程度大約5.11a。"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				Analyze(bc.text)
			}
		})
	}
}
