package retrieve

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// maxContextLine bounds one memory's text in the context.
const maxContextLine = 600

// formatContext renders results for a prompt: a section of facts and one of
// conversation excerpts, each line dated, in score order, at most maxChars
// bytes (0: unbounded). A memory that would overflow the bound is left out
// along with everything after it, so the context never ends mid-sentence.
func formatContext(results []Result, maxChars int) string {
	var facts, eps []string
	for _, r := range results {
		switch {
		case r.Fact != nil:
			facts = append(facts, factLine(r.Fact))
		case r.Episode != nil:
			eps = append(eps, episodeLine(r.Episode))
		}
	}
	var b strings.Builder
	full := false
	section := func(title string, lines []string) {
		if len(lines) == 0 || full {
			return
		}
		head := title + ":\n"
		if b.Len() > 0 {
			head = "\n" + head
		}
		for i, l := range lines {
			add := "- " + l + "\n"
			if i == 0 {
				add = head + add
			}
			if maxChars > 0 && b.Len()+len(add) > maxChars {
				full = true
				return
			}
			b.WriteString(add)
		}
	}
	section("Facts", facts)
	section("Conversation excerpts", eps)
	return strings.TrimRight(b.String(), "\n")
}

func factLine(f *lore.Fact) string {
	start, _ := factSpan(f)
	line := "[" + day(start) + "] " + clip(f.Text) + " (fact"
	if f.InvalidAt != nil {
		line += ", no longer true since " + day(*f.InvalidAt)
	} else if f.ExpiredAt != nil {
		line += ", superseded " + day(*f.ExpiredAt)
	}
	return line + ")"
}

func episodeLine(ep *lore.Episode) string {
	line := "[" + minute(ep.OccurredAt) + "] "
	if ep.Speaker != "" {
		line += ep.Speaker + ": "
	} else if ep.Role != "" {
		line += ep.Role + ": "
	}
	return line + clip(ep.Content)
}

func day(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.UTC().Format("2006-01-02")
}

func minute(t time.Time) string {
	if t.IsZero() {
		return "undated"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

// clip flattens white space and shortens text to maxContextLine bytes at a
// rune boundary, marking the cut with an ellipsis.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxContextLine {
		return s
	}
	cut := maxContextLine
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
