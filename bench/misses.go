package bench

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lore-memory/lore/retrieve"
)

// missDepth and sessionMissDepth are the cut-offs a question must cover
// all its gold turns and all its gold sessions by to not be written as a
// miss: the depths of the turn and session targets.
const (
	missDepth        = 10
	sessionMissDepth = 5
)

// miss is one line of Runner.Misses: what a question needed and what the
// default pipeline returned instead, for reading failures one by one.
type miss struct {
	Space    string     `json:"space"`
	Question string     `json:"question_id"`
	Group    string     `json:"group"`
	Text     string     `json:"question"`
	Gold     []missTurn `json:"gold"`
	// GoldSessions are the gold sessions, each with the rank of the first
	// result from it (ID and Found; no Text).
	GoldSessions []missTurn   `json:"gold_sessions,omitempty"`
	Top          []missResult `json:"top"`
}

type missTurn struct {
	ID    string `json:"id"`
	Text  string `json:"text,omitempty"`
	Found int    `json:"found_at"` // 1-based rank of the first result carrying it; 0 if none of the top 50
}

type missResult struct {
	Type    string             `json:"type"`
	Memory  string             `json:"memory"`
	Sources []string           `json:"sources"`
	Gold    bool               `json:"gold"`
	Scores  map[string]float64 `json:"scores,omitempty"`
}

// writeMiss writes q as a miss when the top missDepth results of rk do not
// cover all of its gold turns, or the top sessionMissDepth all of its gold
// sessions.
func (r *Runner) writeMiss(ds *Dataset, sp Space, q Question, rk ranked, resp *retrieve.Response) error {
	found, sessionFound := firstRanks(rk.turns), firstRanks(rk.sessions)
	missed := false
	for _, g := range q.GoldTurns {
		if at := found[g]; at == 0 || at > missDepth {
			missed = true
		}
	}
	for _, g := range q.GoldSesses {
		if at := sessionFound[g]; at == 0 || at > sessionMissDepth {
			missed = true
		}
	}
	if !missed {
		return nil
	}
	text := map[string]string{}
	for _, s := range sp.Sessions {
		for _, t := range s.Turns {
			text[t.ID] = t.Speaker + ": " + t.Text
		}
	}
	m := miss{Space: sp.ID, Question: q.ID, Group: q.Group, Text: q.Text}
	for _, g := range q.GoldTurns {
		m.Gold = append(m.Gold, missTurn{ID: g, Text: text[g], Found: found[g]})
	}
	for _, g := range q.GoldSesses {
		m.GoldSessions = append(m.GoldSessions, missTurn{ID: g, Found: sessionFound[g]})
	}
	for i, res := range resp.Results {
		if i == missDepth {
			break
		}
		mr := missResult{Type: string(res.Type), Memory: res.Memory, Sources: rk.turns[i], Scores: res.ScoreDetails}
		mr.Gold = slices.ContainsFunc(rk.turns[i], func(id string) bool { return slices.Contains(q.GoldTurns, id) })
		m.Top = append(m.Top, mr)
	}
	line, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("bench: encode miss: %w", err)
	}
	_, err = r.Misses.Write(append(line, '\n'))
	return err
}

// firstRanks maps each id to the 1-based rank of the first result holding it.
func firstRanks(perResult [][]string) map[string]int {
	found := map[string]int{}
	for i, ids := range perResult {
		for _, id := range ids {
			if _, ok := found[id]; !ok {
				found[id] = i + 1
			}
		}
	}
	return found
}
