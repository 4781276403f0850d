package retrieve

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// SignalChangeCue names the factor a turn's score was multiplied by because
// it says a value of the user's changed and the query asks what holds now,
// in Result.ScoreDetails.
const SignalChangeCue = "change_cue"

//go:embed change_cues.txt
var changeCueData string

// changeCues are change_cues.txt's phrases as word lists, by first word.
var changeCues = phrasesByFirstWord(changeCueData)

// applyChangeCue multiplies by 1 + weight the score of each user turn among
// the top best candidate turns that says something changed: for "What
// phone do I have?" the later "got a galaxy s23 in the end" outranks the
// older "my iPhone 11 died". No topic word is asked for, since a change is
// often said in other words than the question's ("i'm climbing at Allez
// Up now" for "where do I work out?"); being among the best turns already
// says it is on topic.
func applyChangeCue(c *candidateSet, f fused, top int, weight float64) {
	var turns []string
	for id := range f.Scores {
		if ep := c.episodes[id]; c.kind[id] == lore.KindEpisode && ep != nil && ep.Role == "user" {
			turns = append(turns, id)
		}
	}
	turns = bestFirst(turns, f.Scores, top)
	for _, id := range turns {
		if holdsPhrase(words(c.episodes[id].Content), changeCues) {
			f.Scores[id] *= 1 + weight
			detail(f.Details, id)[SignalChangeCue] = 1 + weight
		}
	}
}

// bestFirst orders ids by score, best first (ties by id), and keeps the
// top of them.
func bestFirst(ids []string, scores map[string]float64, top int) []string {
	slices.SortFunc(ids, func(a, b string) int {
		if scores[a] != scores[b] {
			if scores[a] > scores[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return ids[:min(len(ids), top)]
}
