package retrieve

import (
	_ "embed"
	"sort"
	"strings"
	"unicode"
)

// The relation stages (roles, topics, question hints) read English words.
// A Chinese query is one run of characters to them, so zhGloss gives them
// the English words its Chinese words stand for: 「我妹妹住在哪裡？」 →
// "my sister live where". Only those stages read the gloss (analysis.Words
// and analysis.RoleText); BM25 and the embedder see the query as written.

//go:embed zh_gloss.txt
var zhGlossData string

// zhGlossTable is zh_gloss.txt, read once; it is never modified.
var zhGlossTable = parseZhGloss(zhGlossData)

type zhGlossEntry struct {
	word    string
	role    bool
	english []string
}

// parseZhGloss reads the format zh_gloss.txt describes, longest words
// first.
func parseZhGloss(data string) []zhGlossEntry {
	var out []zhGlossEntry
	for _, line := range strings.Split(data, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "role":
			out = append(out, zhGlossEntry{word: f[1], role: true, english: []string{f[2]}})
		case len(f) >= 4 && f[0] == "word" && f[2] == "=":
			out = append(out, zhGlossEntry{word: f[1], english: f[3:]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].word) > len(out[j].word) })
	return out
}

// zhGloss returns the English words of a query's Chinese words in order, or
// nil for a query without Han characters. A role word after 我/我的/我們的 is
// "my <role>", after another role and 的 "'s <role>".
func zhGloss(query string) []string {
	if !strings.ContainsFunc(query, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
		return nil
	}
	var out []string
	prevRole := false
	for s := query; s != ""; {
		if strings.HasPrefix(s, "我們的") || strings.HasPrefix(s, "我们的") {
			out, s, prevRole = append(out, "my"), s[len("我們的"):], false
			if e, ok := zhGlossAt(s); ok && e.role {
				out, s, prevRole = append(out, e.english...), s[len(e.word):], true
			}
			continue
		}
		if strings.HasPrefix(s, "我") {
			rest := strings.TrimPrefix(strings.TrimPrefix(s[len("我"):], "的"), "家的")
			if e, ok := zhGlossAt(rest); ok && e.role {
				out, s, prevRole = append(out, "my", e.english[0]), rest[len(e.word):], true
				continue
			}
			s, prevRole = s[len("我"):], false
			continue
		}
		if prevRole && strings.HasPrefix(s, "的") {
			if e, ok := zhGlossAt(s[len("的"):]); ok && e.role {
				out[len(out)-1] += "'s"
				out, s = append(out, e.english[0]), s[len("的")+len(e.word):]
				continue
			}
		}
		if e, ok := zhGlossAt(s); ok && !e.role {
			out, s, prevRole = append(out, e.english...), s[len(e.word):], false
			continue
		}
		_, n := firstRune(s)
		s, prevRole = s[n:], false
	}
	return out
}

// zhGlossAt returns the longest entry s starts with.
func zhGlossAt(s string) (zhGlossEntry, bool) {
	for _, e := range zhGlossTable {
		if strings.HasPrefix(s, e.word) {
			return e, true
		}
	}
	return zhGlossEntry{}, false
}

func firstRune(s string) (rune, int) {
	for i, r := range s {
		if i > 0 {
			return r, i
		}
		_ = r
	}
	return 0, len(s)
}

// hasHan reports whether s holds a Han character: a Chinese word, which
// the relation stages' English word matching never finds in a fact text.
func hasHan(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}
