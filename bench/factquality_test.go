package bench

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
)

// wordsEmbedder embeds a text as its bag of lower-case words, so texts
// sharing most words are near and texts sharing none are orthogonal.
type wordsEmbedder struct{}

func (wordsEmbedder) Info() lore.EmbedderInfo { return lore.EmbedderInfo{Name: "words", Dim: 64} }

func (wordsEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 64)
		for _, w := range strings.Fields(strings.ToLower(strings.Trim(t, ".!"))) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}

func TestScoreFacts(t *testing.T) {
	gold := []GoldFact{
		{Space: "s", Speaker: "Ann", Text: "Ann adopted a dog named Rex", Turns: []string{"D1:1"}},
		{Space: "s", Speaker: "Ann", Text: "Ann works as a nurse in Leeds", Turns: []string{"D1:3"}},
		{Space: "s", Speaker: "Bob", Text: "Bob plays the violin", Turns: []string{"D1:2", "D1:4"}},
	}
	turns := map[string]string{
		"s|D1:1": "Guess what, I adopted a dog named Rex last weekend and he is lovely!",
		"s|D1:2": "I play the violin.",
		"s|D1:3": "I work as a nurse in Leeds.",
		"s|D1:4": "Yes.",
	}
	facts := []FactRecord{
		// Matches gold 0 at its own turn.
		{Space: "s", Text: "Ann adopted a dog named Rex", Turns: []string{"D1:1"}},
		// Same words as gold 1, but cites another turn: no match.
		{Space: "s", Text: "Ann works as a nurse in Leeds", Turns: []string{"D1:1"}},
		// Matches gold 2 through its second turn.
		{Space: "s", Text: "Bob plays the violin", Turns: []string{"D1:4"}, Ended: true},
		// A copy of its turn: an echo, and no gold fact is near it.
		{Space: "s", Text: "Ann said: I play the violin.", Turns: []string{"D1:2"}},
	}
	q, err := ScoreFacts(context.Background(), wordsEmbedder{}, gold, facts, turns, 10)
	if err != nil {
		t.Fatal(err)
	}
	if q.Covered != 2 || q.Coverage != round4(2.0/3) {
		t.Errorf("covered=%d coverage=%v, want 2 and %v", q.Covered, q.Coverage, round4(2.0/3))
	}
	if q.Matched != 2 || q.Precision != 0.5 {
		t.Errorf("matched=%d precision=%v, want 2 and 0.5", q.Matched, q.Precision)
	}
	if q.Echoes != 1 || q.EchoRate != 0.25 {
		t.Errorf("echoes=%d echo rate=%v, want 1 and 0.25", q.Echoes, q.EchoRate)
	}
	if q.Ended != 1 {
		t.Errorf("ended=%d, want 1", q.Ended)
	}
	if len(q.Unmatched) != 2 || len(q.Uncovered) != 1 {
		t.Fatalf("samples: %d unmatched, %d uncovered; want 2 and 1", len(q.Unmatched), len(q.Uncovered))
	}
	if q.Uncovered[0].Gold != gold[1].Text || q.Uncovered[0].Nearest != "" {
		t.Errorf("uncovered=%+v, want the nurse fact with no fact of its turn near it", q.Uncovered[0])
	}
}

func TestIsEcho(t *testing.T) {
	long := "I went to a LGBTQ support group yesterday and it was so powerful, honestly."
	tests := []struct {
		name, fact, turn string
		want             bool
	}{
		{"short turn copied", "Ann said: Yes, I did!", "Yes, I did!", true},
		{"first 60 characters copied", "Caroline mentioned LGBTQ: " + long[:70], long, true},
		{"case and spacing aside", "i went to a LGBTQ  support group yesterday and it was so powerful", long, true},
		{"resolved speaker is no copy", "Caroline went to a LGBTQ support group on 7 May 2023", long, false},
		{"empty turn", "anything", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := isEcho(tt.fact, tt.turn); got != tt.want {
				t.Errorf("isEcho(%q, %q)=%v, want %v", tt.fact, tt.turn, got, tt.want)
			}
		})
	}
}

func TestParseLoCoMoObservations(t *testing.T) {
	ds := &Dataset{SessionOf: map[string]string{"c1|D1:3": "c1/S1", "c1|D1:5": "c1/S1", "c1|D2:1": "c1/S2"}}
	raw := `[{"sample_id": "c1", "observation": {
		"session_2_observation": {"Ann": [["Ann moved to Leeds.", "D2:1"]]},
		"session_1_observation": {
			"Bob": [["Bob likes tea.", "D:1:03"], ["Bob has no turn.", "D9:9"]],
			"Ann": [["Ann paints.", ["D1:5", "D1:3"]]]}}}]`
	got, err := ParseLoCoMoObservations([]byte(raw), ds)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, g := range got {
		lines = append(lines, g.Speaker+" "+g.Text+" "+strings.Join(g.Turns, ","))
	}
	want := "Ann Ann paints. D1:5,D1:3|Bob Bob likes tea. D1:3|Ann Ann moved to Leeds. D2:1"
	if strings.Join(lines, "|") != want {
		t.Errorf("gold=%q, want %q", strings.Join(lines, "|"), want)
	}
}
