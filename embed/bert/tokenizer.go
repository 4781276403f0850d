package bert

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Special tokens of the BERT uncased vocabulary.
const (
	padToken = "[PAD]"
	unkToken = "[UNK]"
	clsToken = "[CLS]"
	sepToken = "[SEP]"
)

// maxWordChars is the longest word WordPiece splits; longer words become
// [UNK], as in BERT's reference tokenizer.
const maxWordChars = 100

// Tokenizer is BERT's uncased WordPiece tokenizer, matching the
// "tokenizers" library's BertNormalizer, BertPreTokenizer and WordPiece
// model as all-MiniLM-L6-v2's tokenizer.json configures them. It is safe for
// concurrent use.
type Tokenizer struct {
	vocab                map[string]int32
	pad, unk, cls, sep   int32
	maxLen               int // including [CLS] and [SEP]
	longestPiece         int // bytes; bounds the longest-match search
	continuationPrefixed map[string]int32
}

// NewTokenizer reads a vocab.txt (one token a line, the line number is the
// id) and returns a tokenizer that truncates to maxLen ids, [CLS] and [SEP]
// included.
func NewTokenizer(vocab io.Reader, maxLen int) (*Tokenizer, error) {
	if maxLen < 3 {
		return nil, fmt.Errorf("minilm: tokenizer max length %d is below 3", maxLen)
	}
	t := &Tokenizer{vocab: make(map[string]int32, 32768), continuationPrefixed: make(map[string]int32, 8192), maxLen: maxLen}
	sc := bufio.NewScanner(vocab)
	var id int32
	for sc.Scan() {
		tok := strings.TrimRight(sc.Text(), "\r")
		if _, dup := t.vocab[tok]; !dup {
			t.vocab[tok] = id
		}
		if rest, ok := strings.CutPrefix(tok, "##"); ok && rest != "" {
			if _, dup := t.continuationPrefixed[rest]; !dup {
				t.continuationPrefixed[rest] = id
			}
			t.longestPiece = max(t.longestPiece, len(rest))
		} else {
			t.longestPiece = max(t.longestPiece, len(tok))
		}
		id++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("minilm: read vocab: %w", err)
	}
	for _, sp := range []struct {
		name string
		dst  *int32
	}{{padToken, &t.pad}, {unkToken, &t.unk}, {clsToken, &t.cls}, {sepToken, &t.sep}} {
		v, ok := t.vocab[sp.name]
		if !ok {
			return nil, fmt.Errorf("minilm: vocab has no %s token", sp.name)
		}
		*sp.dst = v
	}
	return t, nil
}

// Encode returns the ids of text: [CLS], the WordPiece ids truncated to
// fit, [SEP].
func (t *Tokenizer) Encode(text string) []int32 {
	ids := make([]int32, 1, 32)
	ids[0] = t.cls
	budget := t.maxLen - 2
	for _, word := range t.words(text) {
		if len(ids)-1 >= budget {
			break
		}
		ids = t.wordPiece(ids, word)
	}
	if len(ids)-1 > budget {
		ids = ids[:budget+1]
	}
	return append(ids, t.sep)
}

// words normalizes text as BertNormalizer does (drop control characters,
// map white space to a space, surround CJK ideographs with spaces, strip
// accents, lower-case) and splits it as BertPreTokenizer does: on white
// space, with every punctuation character a word of its own.
func (t *Tokenizer) words(text string) []string {
	var b strings.Builder
	b.Grow(len(text) + 8)
	ascii := true
	for _, r := range text {
		switch {
		case r == 0 || r == utf8.RuneError || isControl(r):
			continue
		case isWhitespace(r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			if r >= utf8.RuneSelf {
				ascii = false
			}
			b.WriteRune(r)
		}
	}
	s := b.String()
	if !ascii {
		s = stripAccents(s)
	}
	// Lower-casing after stripping accents leaves no character whose
	// lower case is longer than one rune ("İ" has lost its dot by now).
	s = strings.ToLower(s)

	var words []string
	start := -1
	for i, r := range s {
		switch {
		case r == ' ':
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
		case isPunct(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			words = append(words, s[i:i+utf8.RuneLen(r)])
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// wordPiece appends the ids of one word to ids: greedy longest match first,
// continuation pieces prefixed "##"; a word with an unmatchable rest is one
// [UNK].
func (t *Tokenizer) wordPiece(ids []int32, word string) []int32 {
	if utf8.RuneCountInString(word) > maxWordChars {
		return append(ids, t.unk)
	}
	if id, ok := t.vocab[word]; ok {
		return append(ids, id)
	}
	mark := len(ids)
	for start := 0; start < len(word); {
		end := min(len(word), start+t.longestPiece)
		found := false
		for end > start {
			// Only cut on rune boundaries, so pieces are valid UTF-8 as the
			// reference tokenizer's are.
			if end < len(word) && !utf8.RuneStart(word[end]) {
				end--
				continue
			}
			var id int32
			var ok bool
			if start == 0 {
				id, ok = t.vocab[word[:end]]
			} else {
				id, ok = t.continuationPrefixed[word[start:end]]
			}
			if ok {
				ids = append(ids, id)
				found = true
				break
			}
			end--
		}
		if !found {
			return append(ids[:mark], t.unk)
		}
		start = end
	}
	return ids
}

// isControl reports characters that BertNormalizer drops: Unicode "other"
// categories except the tab and line breaks, which count as white space.
func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// isWhitespace is Unicode's White_Space property, which is what the
// reference tokenizer splits on.
func isWhitespace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || unicode.IsSpace(r)
}

// isPunct is BERT's notion of punctuation: every ASCII non-alphanumeric
// printable character (so "$", "+" and "^" split words too) and Unicode's
// P categories.
func isPunct(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126)
	}
	return unicode.IsPunct(r)
}

// isCJK reports the CJK Unified Ideographs blocks that BERT tokenizes one
// character at a time. Hangul, kana and CJK punctuation are not among them.
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}

// stripAccents decomposes s (NFD) and drops the nonspacing marks.
func stripAccents(s string) string {
	d := norm.NFD.String(s)
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
}
