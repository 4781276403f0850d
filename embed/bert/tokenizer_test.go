package bert

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFixtureVocab guards the committed vocabulary: it must be the model's.
func TestFixtureVocab(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(fixtureDir, "vocab.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	const want = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"
	if got := hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("sha256(vocab.txt)=%s, want %s", got, want)
	}
}

// TestTokenizerMatchesReference compares Encode with the ids that the
// reference tokenizer (tokenizers' BertTokenizerFast, as sentence-transformers
// calls it) produced for every fixture text.
func TestTokenizerMatchesReference(t *testing.T) {
	ref := loadReference(t)
	if ref.MaxSeqLength != MiniLM().MaxSeqLength {
		t.Fatalf("fixture max_seq_length=%d, want %d", ref.MaxSeqLength, MiniLM().MaxSeqLength)
	}
	tok := fixtureTokenizer(t)
	cases := append([]struct {
		Text string  `json:"text"`
		IDs  []int32 `json:"ids"`
	}{}, ref.TokenizerCases...)
	for _, s := range ref.Sentences {
		cases = append(cases, struct {
			Text string  `json:"text"`
			IDs  []int32 `json:"ids"`
		}{s.Text, s.IDs})
	}
	if len(cases) < 60 {
		t.Fatalf("fixture holds %d tokenizer cases, want at least 60", len(cases))
	}
	for i, c := range cases {
		name := fmt.Sprintf("%02d_%s", i, c.Text)
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			if got := tok.Encode(c.Text); !slices.Equal(got, c.IDs) {
				t.Errorf("Encode(%q)\n got %v\nwant %v", c.Text, got, c.IDs)
			}
		})
	}
}

// TestTokenizerRules checks each normalization and WordPiece rule on a tiny
// vocabulary, so a failure names the rule that broke.
func TestTokenizerRules(t *testing.T) {
	vocab := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "un", "##aff", "##able", "!", ",", "$",
		"cafe", "北", "京", "a", "##b", "##c", "abc", "x", "##x", "ab"}
	id := func(tok string) int32 { return int32(slices.Index(vocab, tok)) }
	tok, err := NewTokenizer(strings.NewReader(strings.Join(vocab, "\n")+"\n"), 8)
	if err != nil {
		t.Fatal(err)
	}
	const cls, sep = 2, 3
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"lower case", "HeLLo WORLD", []string{"hello", "world"}},
		{"punctuation splits", "hello,world!", []string{"hello", ",", "world", "!"}},
		{"ascii symbol is punctuation", "$hello", []string{"$", "hello"}},
		{"accents stripped", "Café", []string{"cafe"}},
		{"cjk spaced", "北京", []string{"北", "京"}},
		{"continuation pieces", "unaffable", []string{"un", "##aff", "##able"}},
		{"longest match first", "abc", []string{"abc"}},
		{"longest prefix then pieces", "abcb", []string{"abc", "##b"}},
		{"unknown rest is one unk", "unaffz", []string{"[UNK]"}},
		{"control dropped", "hel\x00lo", []string{"hello"}},
		{"odd white space splits", "hello\u00a0world\u2003x", []string{"hello", "world", "x"}},
		{"word over 100 chars is unk", strings.Repeat("x", 101), []string{"[UNK]"}},
		{"repeated pieces", strings.Repeat("x", 4), []string{"x", "##x", "##x", "##x"}},
		{"truncated to max length", "hello world hello world hello world hello", []string{"hello", "world", "hello", "world", "hello", "world"}},
		{"truncation inside a word", "x x x x x abc unaffable", []string{"x", "x", "x", "x", "x", "abc"}},
		{"truncation cuts word pieces", "x x x x x unaffable", []string{"x", "x", "x", "x", "x", "un"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := []int32{cls}
			for _, w := range tt.want {
				if id(w) < 0 {
					t.Fatalf("test token %q not in vocab", w)
				}
				want = append(want, id(w))
			}
			want = append(want, sep)
			if got := tok.Encode(tt.text); !slices.Equal(got, want) {
				t.Errorf("Encode(%q)=%v, want %v (%v)", tt.text, got, want, tt.want)
			}
		})
	}
}

func TestNewTokenizerErrors(t *testing.T) {
	tests := []struct {
		name   string
		vocab  string
		maxLen int
		want   string
	}{
		{"no special tokens", "hello\nworld\n", 16, "no [PAD]"},
		{"no sep", "[PAD]\n[UNK]\n[CLS]\n", 16, "no [SEP]"},
		{"max length too small", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n", 2, "below 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewTokenizer(strings.NewReader(tt.vocab), tt.maxLen)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err=%v, want one containing %q", err, tt.want)
			}
		})
	}
}

func BenchmarkTokenizer(b *testing.B) {
	tok := fixtureTokenizer(b)
	ref := loadReference(b)
	var bytes int64
	for _, s := range ref.Sentences {
		bytes += int64(len(s.Text))
	}
	b.SetBytes(bytes)
	for b.Loop() {
		for _, s := range ref.Sentences {
			tok.Encode(s.Text)
		}
	}
}
