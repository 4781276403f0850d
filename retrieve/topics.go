package retrieve

import (
	_ "embed"
	"slices"
	"strings"
)

// topicData is the topic word list; topics.txt says where it comes from.
//
//go:embed topics.txt
var topicData string

// topicEntry is one phrase of topics.txt and the predicates it asks for.
type topicEntry struct {
	phrase []string
	preds  []string
}

// topicTable holds topics.txt's phrases, longest first.
var topicTable = parseTopics(topicData)

// parseTopics reads the format topics.txt describes.
func parseTopics(data string) []topicEntry {
	var out []topicEntry
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		left, right, ok := strings.Cut(line, "=")
		preds := strings.Fields(right)
		if !ok || len(preds) == 0 {
			continue
		}
		if len(preds) == 1 && preds[0] == "-" {
			preds = nil // a phrase that asks for no attribute
		}
		for _, p := range strings.Split(left, ",") {
			if ws := strings.Fields(strings.ToLower(p)); len(ws) > 0 {
				out = append(out, topicEntry{phrase: ws, preds: preds})
			}
		}
	}
	// Longest first, so "job title" is read before "title".
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j].phrase) > len(out[j-1].phrase); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// topicPredicates reads the query's words for the attribute they ask for:
// the predicates of topics.txt whose phrases the words hold (each word read
// once, longest phrase first), and the words those phrases used.
func topicPredicates(ws []string) (preds []string, used map[string]bool) {
	used = map[string]bool{}
	taken := make([]bool, len(ws))
	// placeAsked are the place predicates of phrases that ask only for a
	// place ("university"), not also for something else ("study").
	placeAsked := map[string]bool{}
	for _, e := range topicTable {
		for i := 0; i+len(e.phrase) <= len(ws); i++ {
			match := true
			for j, w := range e.phrase {
				if taken[i+j] || ws[i+j] != w {
					match = false
					break
				}
			}
			if !match {
				continue
			}
			for j := range e.phrase {
				taken[i+j] = true
				used[ws[i+j]] = true
			}
			onlyPlaces := !slices.ContainsFunc(e.preds, func(p string) bool { return !placePredicate(p) })
			for _, p := range e.preds {
				if !containsString(preds, p) {
					preds = append(preds, p)
				}
				if onlyPlaces {
					placeAsked[p] = true
				}
			}
		}
	}
	// "Where does Yaw study?" asks for the school, "What does Yaw study?"
	// for the field: of a phrase's predicates (studies, studies_at) the
	// question word keeps the places or the rest.
	hasPlace := slices.ContainsFunc(preds, placePredicate)
	hasOther := slices.ContainsFunc(preds, func(p string) bool { return !placePredicate(p) })
	switch {
	case hasPlace && hasOther && slices.Contains(ws, "where"):
		preds = slices.DeleteFunc(preds, func(p string) bool { return !placePredicate(p) })
	case hasPlace && hasOther:
		preds = slices.DeleteFunc(preds, func(p string) bool { return placePredicate(p) && !placeAsked[p] })
	}
	return preds, used
}

// placePredicate reports whether a predicate's object is a place or an
// organisation (lives_in, studies_at, works_for, comes_from).
func placePredicate(p string) bool {
	for _, suffix := range []string{"_at", "_in", "_from", "_for"} {
		if strings.HasSuffix(p, suffix) {
			return true
		}
	}
	return p == "employer" || p == "current_city"
}

// predicateIn reports whether pred is one of preds, an entry ending in "*"
// matching by prefix.
func predicateIn(pred string, preds []string) bool {
	for _, p := range preds {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if strings.HasPrefix(pred, prefix) {
				return true
			}
		} else if p == pred {
			return true
		}
	}
	return false
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// SignalAnswer names the bonus of a fact stating the attribute the query
// asks for (Config.AnswerBoost), in Result.ScoreDetails.
const SignalAnswer = "answer"

// applyAnswerBoost adds boost to the fused score of each fact the relation
// stage found stating the attribute the query asks for.
func applyAnswerBoost(c *candidateSet, f fused, boost float64) {
	for id := range c.answers {
		if _, ok := f.Scores[id]; !ok {
			continue
		}
		f.Scores[id] += boost
		detail(f.Details, id)[SignalAnswer] = boost
	}
}

// asksValue reports whether a query asks for a value (a wh-question:
// "what's my job title?", "where does my sister work?") rather than
// whether something holds ("do I still work at Zalando?", "am I married to
// Sam?"), whose answer is the statement that confirms or ends it.
func asksValue(ws []string) bool {
	for _, w := range ws {
		switch w {
		case "what", "where", "which", "who", "whom", "whose", "when", "how":
			return true
		case "do", "does", "did", "am", "is", "are", "was", "were", "have", "has", "had", "can", "will", "would":
			return false
		}
	}
	return false
}
