package lore

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Long episodes are indexed in passages so that a search hit points into
// them: an episode whose content is longer than PassageThreshold bytes is
// indexed as passages of at most MaxPassageBytes, broken at paragraph,
// sentence or word boundaries, each under the id PassageID(episode, n). An
// episode up to the threshold (nearly every chat turn) is indexed whole,
// and a short list ("quick list of news: - left the band - sold the car")
// also item by item: one embedding of the whole list is near none of its
// items.
const (
	PassageThreshold = 8 << 10
	MaxPassageBytes  = 2000
	// minPassageBytes is where a passage may end at the earliest when a
	// boundary is sought; passages are then 1,000 to 2,000 bytes.
	minPassageBytes = 1000
)

// Passage is a span of an episode's content that the index holds as its
// own document. Start and End are byte offsets into the content.
type Passage struct {
	Index int    `json:"index"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// MaxListBytes is the longest content whose list items are indexed beside
// the whole: a short list is what a person types to give their news; a long
// one is mostly pasted or generated text, whose items would multiply the
// documents to embed. The ingest side indexes the items of users' turns
// only; ids of items never indexed are harmless to delete.
const MaxListBytes = 1500

// minListItems is how many list lines make content a list.
const minListItems = 2

// listItemRe is a line that starts a list item: "- ", "* ", "• ", "1) ",
// "2. ".
var listItemRe = regexp.MustCompile(`^[ \t]*(?:[-*•–]|\d{1,2}[.)])[ \t]+\S`)

// Passages splits content into passages when it is longer than
// PassageThreshold, returns a short list's items (see IndexedWhole), and
// nil otherwise. The split depends on the content alone, so a passage's
// offsets can always be recomputed from its index.
func Passages(content string) []Passage {
	if len(content) <= PassageThreshold {
		return listItems(content)
	}
	var out []Passage
	start := 0
	for {
		// Passages start and end on text, not on white space.
		for start < len(content) {
			r, n := utf8.DecodeRuneInString(content[start:])
			if !unicode.IsSpace(r) {
				break
			}
			start += n
		}
		if start >= len(content) {
			return out
		}
		end := len(content)
		if end-start > MaxPassageBytes {
			end = passageEnd(content, start)
		}
		text := strings.TrimRightFunc(content[start:end], unicode.IsSpace)
		out = append(out, Passage{Index: len(out), Start: start, End: start + len(text), Text: text})
		start = end
	}
}

// IndexedWhole reports whether content is indexed as one document (its
// Passages, if any, are list items indexed besides it) rather than as its
// passages alone.
func IndexedWhole(content string) bool { return len(content) <= PassageThreshold }

// listItems returns the list lines of content up to MaxListBytes that
// holds at least minListItems of them, each a passage; nil otherwise.
func listItems(content string) []Passage {
	if len(content) > MaxListBytes {
		return nil
	}
	var out []Passage
	off := 0
	for _, line := range strings.SplitAfter(content, "\n") {
		if listItemRe.MatchString(line) {
			text := strings.TrimSpace(line)
			start := off + strings.Index(line, text)
			out = append(out, Passage{Index: len(out), Start: start, End: start + len(text), Text: text})
		}
		off += len(line)
	}
	if len(out) < minListItems {
		return nil
	}
	return out
}

// passageEnd returns where the passage starting at start ends: after the
// last paragraph break, else sentence end, else space, between
// minPassageBytes and MaxPassageBytes from start; else at the last rune
// boundary within MaxPassageBytes.
func passageEnd(s string, start int) int {
	limit := start + MaxPassageBytes
	for limit > start && !utf8.RuneStart(s[limit]) {
		limit--
	}
	window := s[start:limit]
	for _, find := range []func(string) int{
		func(w string) int { return lastIndexEnd(w, "\n\n") },
		func(w string) int { return lastIndexEnd(w, "\n") },
		lastSentenceEnd,
		func(w string) int { return lastIndexEnd(w, " ") },
	} {
		if i := find(window); i >= minPassageBytes {
			return start + i
		}
	}
	return limit
}

// lastIndexEnd returns the offset just after the last sep in w, or -1.
func lastIndexEnd(w, sep string) int {
	if i := strings.LastIndex(w, sep); i >= 0 {
		return i + len(sep)
	}
	return -1
}

// lastSentenceEnd returns the offset just after the last ".", "!" or "?"
// followed by a space in w, or -1.
func lastSentenceEnd(w string) int {
	best := -1
	for _, sep := range []string{". ", "! ", "? "} {
		if i := lastIndexEnd(w, sep); i > best {
			best = i
		}
	}
	return best
}

// PassageID is the index document id of an episode's n-th passage.
func PassageID(episodeID string, n int) string {
	return episodeID + "#p" + strconv.Itoa(n)
}

// ParsePassageID splits a PassageID into its episode id and passage
// index; ok is false for any other id.
func ParsePassageID(id string) (episodeID string, n int, ok bool) {
	i := strings.LastIndex(id, "#p")
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(id[i+2:])
	if err != nil || n < 0 || strconv.Itoa(n) != id[i+2:] {
		return "", 0, false
	}
	return id[:i], n, true
}
