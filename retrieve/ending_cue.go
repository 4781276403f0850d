package retrieve

import (
	_ "embed"
	"slices"

	"github.com/lore-memory/lore"
)

// SignalEndingCue names the factor a turn's score was multiplied by because
// it says something stopped and the query asks whether it still holds, in
// Result.ScoreDetails.
const SignalEndingCue = "ending_cue"

//go:embed ending_cues.txt
var endingCueData string

// endingCues are ending_cues.txt's phrases as word lists, by first word.
var endingCues = phrasesByFirstWord(endingCueData)

// asksStill reports whether a query asks if something still holds ("Do I
// still play futsal?", "Am I vegetarian anymore?").
func asksStill(ws []string) bool {
	for i, w := range ws {
		switch w {
		case "still", "anymore":
			return true
		case "any", "no":
			if i+1 < len(ws) && (ws[i+1] == "more" || ws[i+1] == "longer") {
				return true
			}
		}
	}
	return false
}

// saysEnding reports whether a text's words hold an ending phrase.
func saysEnding(ws []string) bool { return holdsPhrase(ws, endingCues) }

// applyEndingCue multiplies by 1 + weight the score of each candidate turn
// that shares a topic word with the query and says something ended: "I quit
// futsal" answers "Do I still play futsal?" better than the older turn
// that says "I play futsal on Saturdays".
func applyEndingCue(c *candidateSet, f fused, topic []string, weight float64) {
	liftTopicTurns(c, f, topic, weight, saysEnding, SignalEndingCue)
}

// liftTopicTurns multiplies by 1 + weight the score of each candidate turn
// whose words satisfy says and hold a topic word, and records the factor
// under signal.
func liftTopicTurns(c *candidateSet, f fused, topic []string, weight float64, says func([]string) bool, signal string) {
	want := map[string]bool{}
	for _, w := range topic {
		want[stem(w)] = true
	}
	if len(want) == 0 {
		return
	}
	for id := range f.Scores {
		if c.kind[id] != lore.KindEpisode {
			continue
		}
		ep := c.episodes[id]
		if ep == nil {
			continue
		}
		ws := words(ep.Content)
		if !says(ws) || !slices.ContainsFunc(ws, func(w string) bool { return !isStopword(w) && want[stem(w)] }) {
			continue
		}
		f.Scores[id] *= 1 + weight
		detail(f.Details, id)[signal] = 1 + weight
	}
}
