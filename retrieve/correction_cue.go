package retrieve

import (
	_ "embed"
	"strings"
)

// SignalCorrectionCue names the factor a turn's score was multiplied by
// because it corrects a value the query asks about, in
// Result.ScoreDetails.
const SignalCorrectionCue = "correction_cue"

//go:embed correction_cues.txt
var correctionCueData string

// correctionCues are correction_cues.txt's phrases as word lists, by first
// word.
var correctionCues = phrasesByFirstWord(correctionCueData)

// interjections may come before the "no" that opens a correction ("haha
// no", "oh sorry, not Bangkok").
var interjections = map[string]bool{"oh": true, "ah": true, "ha": true, "haha": true, "hah": true, "lol": true,
	"mmm": true, "mm": true, "hmm": true, "um": true, "uh": true, "sorry": true, "oops": true, "well": true, "ok": true, "okay": true}

// saysCorrection reports whether a text corrects a value: a correction
// phrase, a first word "no"/"nope"/"not" after any interjections, or a
// value set against another ("historia not math", "Ohio State, not Ohio
// University": "not" after a content word, before a content word).
func saysCorrection(ws []string) bool {
	if holdsPhrase(ws, correctionCues) {
		return true
	}
	for _, w := range ws {
		if interjections[w] {
			continue
		}
		if w == "no" || w == "nope" || w == "not" {
			return true
		}
		break
	}
	for i := 1; i+1 < len(ws); i++ {
		if ws[i] != "not" {
			continue
		}
		prev, next := ws[i-1], ws[i+1]
		if !isStopword(prev) && !strings.HasSuffix(prev, "ly") && !interjections[prev] && !isStopword(next) {
			return true
		}
	}
	return false
}

// applyCorrectionCue multiplies by 1 + weight the score of each candidate
// turn that corrects a value and shares a topic word with the query: "not
// Bangkok, Seoul!" answers "Where did we go in October?" better than the
// turn it corrects.
func applyCorrectionCue(c *candidateSet, f fused, topic []string, weight float64) {
	liftTopicTurns(c, f, topic, weight, saysCorrection, SignalCorrectionCue)
}
