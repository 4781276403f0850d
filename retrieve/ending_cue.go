package retrieve

import (
	_ "embed"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// SignalEndingCue names the factor a turn's score was multiplied by because
// it says something stopped and the query asks whether it still holds, in
// Result.ScoreDetails.
const SignalEndingCue = "ending_cue"

//go:embed ending_cues.txt
var endingCueData string

// endingCues are ending_cues.txt's phrases as word lists, by first word.
var endingCues = func() map[string][][]string {
	out := map[string][][]string{}
	for line := range strings.Lines(endingCueData) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ws := strings.Fields(strings.ToLower(line))
		out[ws[0]] = append(out[ws[0]], ws)
	}
	return out
}()

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
func saysEnding(ws []string) bool {
	for i, w := range ws {
		for _, cue := range endingCues[w] {
			if i+len(cue) <= len(ws) && slices.Equal(ws[i:i+len(cue)], cue) {
				return true
			}
		}
	}
	return false
}

// applyEndingCue multiplies by 1 + weight the score of each candidate turn
// that shares a topic word with the query and says something ended: "I quit
// futsal" answers "Do I still play futsal?" better than the older turn
// that says "I play futsal on Saturdays".
func applyEndingCue(c *candidateSet, f fused, topic []string, weight float64) {
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
		if !saysEnding(ws) || !slices.ContainsFunc(ws, func(w string) bool { return !isStopword(w) && want[stem(w)] }) {
			continue
		}
		f.Scores[id] *= 1 + weight
		detail(f.Details, id)[SignalEndingCue] = 1 + weight
	}
}
