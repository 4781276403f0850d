package rules

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/lore-memory/lore"
)

// The learned fact scorer.
//
// The rules extractor states every informative sentence; many of those
// statements are true but not what a reader would keep. Scorer is a
// logistic regression over the embedding of a statement's text and of its
// message's index key (lore.EpisodeKey without facts: speaker, content,
// the end of the turn it answers), trained on labelled facts of the rules
// extractor (data/factscorer.json says how). It only ever drops facts of
// predicate "statement" that end nothing: relations, changes and endings
// stay. It needs the embedder it was trained with; under any other it keeps
// everything.

//go:embed data/factscorer.json
var scorerJSON []byte

// scorerModel is data/factscorer.json.
type scorerModel struct {
	About     []string  `json:"about"`
	Embedder  string    `json:"embedder"`
	Dim       int       `json:"dim"`
	Features  []string  `json:"features"`
	Weights   []float64 `json:"weights"`
	Bias      float64   `json:"bias"`
	Threshold float64   `json:"threshold"`
}

// Scorer drops the statements of a rules extraction that its model scores
// below its threshold. It holds no mutable state.
type Scorer struct {
	m scorerModel
}

// NewScorer loads the scorer shipped in data/factscorer.json.
func NewScorer() (*Scorer, error) {
	var m scorerModel
	if err := json.Unmarshal(scorerJSON, &m); err != nil {
		return nil, fmt.Errorf("rules: fact scorer: %w", err)
	}
	want := []string{"fact", "message_key"}
	if len(m.Features) != len(want) || m.Features[0] != want[0] || m.Features[1] != want[1] {
		return nil, fmt.Errorf("rules: fact scorer: features %v, want %v", m.Features, want)
	}
	if m.Dim <= 0 || len(m.Weights) != 2*m.Dim {
		return nil, fmt.Errorf("rules: fact scorer: %d weights for dimension %d, want %d", len(m.Weights), m.Dim, 2*m.Dim)
	}
	return &Scorer{m: m}, nil
}

// Threshold returns the least probability a statement keeps.
func (s *Scorer) Threshold() float64 { return s.m.Threshold }

// Applies reports whether the scorer can judge ext's facts with vectors of
// the embedder described by info: the facts are the rules extractor's and
// the embedder is the one the model was trained with.
func (s *Scorer) Applies(ext *lore.Extraction, info lore.EmbedderInfo) bool {
	return ext != nil && strings.HasPrefix(ext.Extractor, "rules/") && info.Name == s.m.Embedder && info.Dim == s.m.Dim
}

// Scorable reports whether the scorer may drop f: a statement (no
// recognised relation) that ends nothing and cites a message.
func Scorable(f lore.ExtractedFact) bool {
	return f.Predicate == "statement" && f.InvalidAt == nil && len(f.EpisodeIDs) > 0
}

// Filter returns ext's facts without the statements scored below the
// threshold, and the texts it dropped. keys holds each episode's index key
// by episode id; embed returns one vector per text (the caller's cache).
// When the scorer does not apply (Applies) the facts come back unchanged.
func (s *Scorer) Filter(ctx context.Context, ext *lore.Extraction, keys map[string]string, info lore.EmbedderInfo, embed func(context.Context, []string) ([][]float32, error)) ([]lore.ExtractedFact, []string, error) {
	if !s.Applies(ext, info) {
		return ext.Facts, nil, nil
	}
	var texts []string
	at := map[int]int{} // fact index → index of its text in texts
	for i, f := range ext.Facts {
		key, ok := keys[f.EpisodeIDs[0]]
		if !Scorable(f) || !ok {
			continue
		}
		at[i] = len(texts)
		texts = append(texts, f.Text, key)
	}
	if len(texts) == 0 {
		return ext.Facts, nil, nil
	}
	vecs, err := embed(ctx, texts)
	if err != nil {
		return nil, nil, fmt.Errorf("rules: fact scorer: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, nil, fmt.Errorf("rules: fact scorer: %d vectors for %d texts", len(vecs), len(texts))
	}
	kept := make([]lore.ExtractedFact, 0, len(ext.Facts))
	var dropped []string
	for i, f := range ext.Facts {
		j, ok := at[i]
		if ok {
			p, err := s.Prob(vecs[j], vecs[j+1])
			if err != nil {
				return nil, nil, err
			}
			if p < s.m.Threshold {
				dropped = append(dropped, f.Text)
				continue
			}
		}
		kept = append(kept, f)
	}
	return kept, dropped, nil
}

// Prob returns the model's probability that a statement is worth keeping,
// from the vectors of its text and of its message's key.
func (s *Scorer) Prob(fact, message []float32) (float64, error) {
	d := s.m.Dim
	if len(fact) != d || len(message) != d {
		return 0, fmt.Errorf("rules: fact scorer: vectors of %d and %d dimensions, want %d", len(fact), len(message), d)
	}
	z := s.m.Bias
	for i := range d {
		z += s.m.Weights[i]*float64(fact[i]) + s.m.Weights[d+i]*float64(message[i])
	}
	return 1 / (1 + math.Exp(-z)), nil
}
