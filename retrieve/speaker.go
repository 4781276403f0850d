package retrieve

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// SignalSpeaker names the factor a turn's score was multiplied by because
// the query asks about someone else, in Result.ScoreDetails.
const SignalSpeaker = "speaker"

// focusSpeaker finds the one speaker the query names among the speakers
// of the candidate turns ("What did Caroline paint?"): a query about a
// person is mostly answered by what that person said, not by what was said
// to them (in LoCoMo, 96% of the evidence turns of questions naming one
// speaker are that speaker's). It returns "" when the query names no
// speaker or more than one, and the lower-case names of all the speakers.
func focusSpeaker(words []string, episodes map[string]*lore.Episode) (string, map[string]bool) {
	query := map[string]bool{}
	for _, w := range words {
		query[w] = true
	}
	named, many := "", false
	speakers := map[string]bool{}
	for _, ep := range episodes {
		sp := strings.TrimSpace(ep.Speaker)
		key := strings.ToLower(sp)
		if sp == "" || speakers[key] {
			continue
		}
		speakers[key] = true
		if !namesSpeaker(query, sp) {
			continue
		}
		many = many || named != ""
		named = key
	}
	if many {
		return "", speakers
	}
	return named, speakers
}

// namesSpeaker reports whether the query's words include the speaker's
// full name or its first word ("Caroline" for "Caroline Smith").
func namesSpeaker(query map[string]bool, speaker string) bool {
	ws := words(speaker)
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if !query[w] {
			return query[ws[0]] && !isStopword(ws[0])
		}
	}
	return true
}

// withoutSpeakers removes from the query the names of the conversation's
// speakers it names, for the dense signal. A name pulls the query vector
// toward turns that address that person ("Wow, Melanie!"), which are the
// other speaker's; who said what is the speaker focus's job. Without the
// name, LoCoMo turn frac@10 rose 0.791 → 0.809 (bench/README.md). A query
// made only of names is kept whole.
func withoutSpeakers(query string, queryWords []string, speakers []string) string {
	inQuery := map[string]bool{}
	for _, w := range queryWords {
		inQuery[w] = true
	}
	drop := map[string]bool{}
	for _, sp := range speakers {
		if namesSpeaker(inQuery, sp) {
			for _, w := range words(sp) {
				drop[w] = true
			}
		}
	}
	if len(drop) == 0 {
		return query
	}
	// Tokens are split as words() splits them, so "Melanie's" is dropped
	// whole; everything between tokens is kept as it was, except the space
	// before a dropped name that ends a clause ("meet Al?").
	var out []byte
	kept := false
	rest := query
	for rest != "" {
		start := strings.IndexFunc(rest, isWordRune)
		if start < 0 {
			out = append(out, rest...)
			break
		}
		out = append(out, rest[:start]...)
		rest = rest[start:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !isWordRune(r) })
		if end < 0 {
			end = len(rest)
		}
		token := rest[:end]
		rest = rest[end:]
		if ws := words(token); len(ws) == 1 && drop[ws[0]] {
			if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !unicode.IsSpace(r) {
				out = bytes.TrimRightFunc(out, unicode.IsSpace)
			}
			continue
		}
		out = append(out, token...)
		kept = true
	}
	if !kept {
		return query
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// isWordRune reports the runes words() keeps inside a word.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’'
}

// applySpeakerFocus multiplies by factor the fused score of every
// candidate turn said by someone other than speaker, and of every fact
// whose subject is another of the speakers.
func applySpeakerFocus(c *candidateSet, f fused, speaker string, speakers map[string]bool, factor float64) {
	for id := range f.Scores {
		other := false
		switch c.kind[id] {
		case lore.KindEpisode:
			if ep := c.episodes[id]; ep != nil {
				other = !strings.EqualFold(strings.TrimSpace(ep.Speaker), speaker)
			}
		case lore.KindFact:
			if fact := c.facts[id]; fact != nil {
				subj := strings.ToLower(strings.TrimSpace(fact.Subject))
				other = subj != speaker && speakers[subj]
			}
		}
		if other {
			f.Scores[id] *= factor
			detail(f.Details, id)[SignalSpeaker] = factor
		}
	}
}

// SignalAssistant names the factor an assistant turn's score was
// multiplied by, in Result.ScoreDetails.
const SignalAssistant = "assistant"

// asksAssistant reports whether a query is about what the assistant said:
// "you" with a verb of saying or advising ("what did you recommend", "you
// said"), or "your" with its noun ("your suggestion").
func asksAssistant(ws []string) bool {
	for i, w := range ws {
		switch w {
		case "you":
			for _, v := range ws[i+1 : min(i+4, len(ws))] {
				if assistantVerbs[v] {
					return true
				}
			}
		case "your":
			if i+1 < len(ws) && assistantNouns[ws[i+1]] {
				return true
			}
		}
	}
	return false
}

var assistantVerbs = setOf("recommend", "recommended", "suggest", "suggested", "tell", "told", "say", "said",
	"mention", "mentioned", "advise", "advised", "propose", "proposed", "give", "gave", "share", "shared",
	"list", "listed", "explain", "explained", "name", "named", "think", "thought", "write", "wrote",
	"provide", "provided", "send", "sent", "come", "came", "remind", "reminded")

var assistantNouns = setOf("recommendation", "recommendations", "suggestion", "suggestions", "advice", "answer",
	"answers", "list", "idea", "ideas", "tips", "tip", "response", "reply")

func setOf(ws ...string) map[string]bool {
	out := make(map[string]bool, len(ws))
	for _, w := range ws {
		out[w] = true
	}
	return out
}

// applyAssistantFactor multiplies by factor the fused score of every
// candidate turn with the assistant role: a user's own statements answer
// questions about the user, the assistant's replies ("How exciting! Does
// she like it?") mostly echo them.
func applyAssistantFactor(c *candidateSet, f fused, factor float64) {
	for id := range f.Scores {
		if c.kind[id] != lore.KindEpisode {
			continue
		}
		if ep := c.episodes[id]; ep != nil && ep.Role == "assistant" {
			f.Scores[id] *= factor
			detail(f.Details, id)[SignalAssistant] = factor
		}
	}
}
