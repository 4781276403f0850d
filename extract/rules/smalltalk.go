package rules

import (
	"regexp"
	"strings"
	"unicode"
)

// Conversation management ("since we last talked", "here's a pic", "guess
// what") states nothing; data/smalltalk.txt lists the phrases and whether
// the phrase alone or its whole clause goes.
var smallTalkCut, smallTalkClause = readSmallTalk()

func readSmallTalk() (cut, clause *regexp.Regexp) {
	var cuts, clauses []string
	for _, line := range readList("smalltalk.txt") {
		i := strings.LastIndex(line, " ")
		if i < 0 {
			continue
		}
		var words []string
		for _, w := range strings.Fields(line[:i]) {
			words = append(words, strings.ReplaceAll(regexp.QuoteMeta(w), "'", `['’]`))
		}
		p := strings.Join(words, `\s+`)
		switch line[i+1:] {
		case "cut":
			cuts = append(cuts, p)
		case "clause":
			clauses = append(clauses, p)
		}
	}
	compile := func(ps []string) *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:` + strings.Join(ps, "|") + `)\b`)
	}
	return compile(cuts), compile(clauses)
}

// clauseCutRe separates the clauses of a sentence for dropSmallTalk.
var clauseCutRe = regexp.MustCompile(`\s*(?:[,;:]|\s[-–—]\s)\s*`)

// dropSmallTalk takes conversation management out of a sentence: the
// clauses holding a "clause" phrase and the "cut" phrases themselves. It
// returns the sentence unchanged when there is none, and "" when nothing
// else is left.
func dropSmallTalk(s string) string {
	if !smallTalkCut.MatchString(s) && !smallTalkClause.MatchString(s) {
		return s
	}
	var kept []string
	last := 0
	cuts := clauseCutRe.FindAllStringIndex(s, -1)
	for i := 0; i <= len(cuts); i++ {
		end := len(s)
		if i < len(cuts) {
			end = cuts[i][0]
		}
		clause := s[last:end]
		if i < len(cuts) {
			last = cuts[i][1]
		}
		if smallTalkClause.MatchString(clause) {
			continue
		}
		clause = strings.Join(strings.Fields(smallTalkCut.ReplaceAllString(clause, "")), " ")
		if clause = strings.TrimFunc(clause, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(",;:-–—", r) }); clause != "" {
			kept = append(kept, clause)
		}
	}
	out := spacePunctRe.ReplaceAllString(strings.Join(kept, ", "), "$1")
	if len(lowerWords(out)) == 0 {
		return ""
	}
	return out
}
