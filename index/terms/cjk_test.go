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
		{name: "traditional folds to simplified", in: "我妹妹住在哪裡", want: "我妹 妹妹 妹住 住在 在哪 哪里"},
		{name: "simplified is unchanged", in: "我妹妹住在哪里", want: "我妹 妹妹 妹住 住在 在哪 哪里"},
		{name: "taiwan variant folds", in: "臺積電", want: "台积 积电"},
		{name: "simplified run", in: "我在台积电工作。", want: "我在 在台 台积 积电 电工 工作"},
		{name: "punctuation ends a run", in: "攀岩，龍洞！", want: "攀岩 龙洞"},
		{name: "one character is itself", in: "猫", want: "猫"},
		{name: "latin inside chinese", in: "我在Google工作", want: "我在 googl 工作"},
		{name: "latin words stem inside chinese", in: "我喜歡Climbing和Running", want: "我喜 喜欢 climb 和 run"},
		{name: "numbers split runs", in: "程度大約5.11a", want: "程度 度大 大约 5 11a"},
		{name: "dates", in: "2023年5月8日", want: "2023 年 5 月 8 日"},
		{name: "full-width latin folds", in: "我在Ｇｏｏｇｌｅ工作，５樓", want: "我在 googl 工作 5 楼"},
		{name: "japanese kana and kanji", in: "東京タワーへ行きました", want: "东京 京タ タワ ワー ーへ へ行 行き きま まし した"},
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

// TestFoldScript checks the Traditional-to-Simplified table: every target
// is Simplified (no target is itself folded), so folding is idempotent and a
// Simplified text analyzes as it did before the fold; the characters the
// fixtures and the issue rely on fold as OpenCC writes them.
func TestFoldScript(t *testing.T) {
	if len(t2s) < 4000 {
		t.Fatalf("len(t2s)=%d, want the ~4100 characters of OpenCC's TSCharacters", len(t2s))
	}
	for src, dst := range t2s {
		if src == dst {
			t.Errorf("%c maps to itself", src)
		}
		if again, ok := t2s[dst]; ok {
			t.Errorf("%c → %c → %c: a target is folded again", src, dst, again)
		}
		if !isCJK(src) || !isCJK(dst) {
			t.Errorf("%c → %c: not both CJK", src, dst)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"裡", "里"}, {"裏", "里"}, {"說", "说"}, {"們", "们"}, {"麼", "么"}, {"臺", "台"},
		{"為", "为"}, {"乾", "干"}, {"於", "于"}, {"纔", "才"},
		// Simplified and shared characters stay.
		{"里", "里"}, {"么", "么"}, {"才", "才"}, {"台", "台"}, {"我", "我"},
		// Not Han: kana, Hangul, Latin.
		{"タ", "タ"}, {"서", "서"}, {"a", "a"},
	} {
		r := []rune(tt.in)[0]
		if got := string(foldScript(r)); got != tt.want {
			t.Errorf("foldScript(%s)=%s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseFoldRejectsBadLines(t *testing.T) {
	for _, data := range []string{"裡里\n", "裡\t里里\n", "裡裡\t里\n", "\t里\n"} {
		if _, err := parseFold(data); err == nil {
			t.Errorf("parseFold(%q): no error", data)
		}
	}
	m, err := parseFold("# comment\n裡\t里\n\n")
	if err != nil || len(m) != 1 || m['裡'] != '里' {
		t.Fatalf("parseFold = %v, %v; want map[裡:里]", m, err)
	}
}

// TestFoldBothScripts analyzes each Traditional sentence and its Simplified
// spelling to the same terms.
func TestFoldBothScripts(t *testing.T) {
	for _, pair := range [][2]string{
		{"我妹妹住在哪裡？", "我妹妹住在哪里？"},
		{"我住在台北，在台積電當工程師。", "我住在台北，在台积电当工程师。"},
		{"我喜歡攀岩，常去龍洞，程度大約5.11a。", "我喜欢攀岩，常去龙洞，程度大约5.11a。"},
		{"我對花生過敏", "我对花生过敏"},
		{"上個月搬到東京了，在Google上班", "上个月搬到东京了，在Google上班"},
	} {
		if a, b := Joined(pair[0]), Joined(pair[1]); a != b {
			t.Errorf("Joined(%q)=%q\nJoined(%q)=%q, want equal", pair[0], a, pair[1], b)
		}
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
