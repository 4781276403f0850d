package bench

import (
	"math"
	"sort"
	"strconv"
)

// Ks are the cut-offs scored; LoCoMo's recipe names 1, 3, 5, 10, 20, 50 and
// LongMemEval's 1, 3, 5, 10, 30, 50.
var Ks = []int{1, 3, 5, 10, 20, 30, 50}

// Metric names.
const (
	RecallAny = "recall_any"
	RecallAll = "recall_all"
	Frac      = "frac"
	NDCG      = "ndcg"
)

// LevelScores maps a metric to its value at each k ("10" → 0.83).
type LevelScores map[string]map[string]float64

// Scores are the averaged metrics of a group of questions.
type Scores struct {
	Turn      LevelScores        `json:"turn"`
	Session   LevelScores        `json:"session"`
	Chars     map[string]float64 `json:"chars"` // mean characters of text in the top k
	Questions int                `json:"questions"`
}

// ranked is one question's results as lists of source ids per result.
type ranked struct {
	turns    [][]string // per result, its source turn ids
	sessions [][]string // per result, the sessions of those turns
	chars    []int      // per result, the length of its text
}

// scoreLevel computes the four metrics at every k for one ranked list.
func scoreLevel(results [][]string, gold []string) map[string]map[int]float64 {
	out := map[string]map[int]float64{RecallAny: {}, RecallAll: {}, Frac: {}, NDCG: {}}
	goldSet := map[string]bool{}
	for _, g := range gold {
		goldSet[g] = true
	}
	for _, k := range Ks {
		found := map[string]bool{}
		dcg := 0.0
		for i := 0; i < k && i < len(results); i++ {
			gain := 0.0
			for _, id := range results[i] {
				if goldSet[id] && !found[id] {
					found[id] = true
					gain = 1 // a result counts once, and only for gold it adds
				}
			}
			dcg += gain / math.Log2(float64(i)+2)
		}
		idcg := 0.0
		for i := 0; i < k && i < len(goldSet); i++ {
			idcg += 1 / math.Log2(float64(i)+2)
		}
		hit := float64(len(found))
		out[RecallAny][k] = b2f(hit > 0)
		out[RecallAll][k] = b2f(len(goldSet) > 0 && int(hit) == len(goldSet))
		out[Frac][k] = hit / float64(max(len(goldSet), 1))
		if idcg > 0 {
			out[NDCG][k] = dcg / idcg
		}
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// accumulator sums per-question scores of one group.
type accumulator struct {
	turn, session map[string]map[int]float64
	turnN, sessN  int
	chars         map[int]float64
	n             int
}

func newAccumulator() *accumulator {
	return &accumulator{turn: map[string]map[int]float64{}, session: map[string]map[int]float64{}, chars: map[int]float64{}}
}

func addInto(dst, src map[string]map[int]float64) {
	for m, byK := range src {
		if dst[m] == nil {
			dst[m] = map[int]float64{}
		}
		for k, v := range byK {
			dst[m][k] += v
		}
	}
}

func (a *accumulator) add(r ranked, goldTurns, goldSessions []string) {
	a.n++
	if len(goldTurns) > 0 {
		addInto(a.turn, scoreLevel(r.turns, goldTurns))
		a.turnN++
	}
	if len(goldSessions) > 0 {
		addInto(a.session, scoreLevel(r.sessions, goldSessions))
		a.sessN++
	}
	for _, k := range Ks {
		sum := 0
		for i := 0; i < k && i < len(r.chars); i++ {
			sum += r.chars[i]
		}
		a.chars[k] += float64(sum)
	}
}

func mean(sums map[string]map[int]float64, n int) LevelScores {
	out := LevelScores{}
	for _, m := range []string{RecallAny, RecallAll, Frac, NDCG} {
		out[m] = map[string]float64{}
		for _, k := range Ks {
			if n > 0 {
				out[m][strconv.Itoa(k)] = round4(sums[m][k] / float64(n))
			}
		}
	}
	return out
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }

func (a *accumulator) scores() Scores {
	s := Scores{Turn: mean(a.turn, a.turnN), Session: mean(a.session, a.sessN), Chars: map[string]float64{}, Questions: a.n}
	for _, k := range Ks {
		if a.n > 0 {
			s.Chars[strconv.Itoa(k)] = math.Round(a.chars[k] / float64(a.n))
		}
	}
	return s
}

// Latency summarises search times in milliseconds.
type Latency struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
}

func percentiles(ms []float64) Latency {
	if len(ms) == 0 {
		return Latency{}
	}
	s := append([]float64(nil), ms...)
	sort.Float64s(s)
	at := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return math.Round(s[max(i, 0)]*100) / 100
	}
	return Latency{P50: at(0.50), P95: at(0.95), P99: at(0.99)}
}
