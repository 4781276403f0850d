package retrieve

import (
	"strings"

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
