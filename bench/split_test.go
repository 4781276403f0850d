package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// lmeDataset builds a LongMemEval-shaped dataset: one space per question,
// counts[type] questions of each type.
func lmeDataset(counts map[string]int) *Dataset {
	ds := &Dataset{Name: "longmemeval", SessionOf: map[string]string{}}
	for typ, n := range counts {
		for i := range n {
			id := fmt.Sprintf("%s-%03d", typ, i)
			ds.Spaces = append(ds.Spaces, Space{ID: id, Questions: []Question{{ID: id, Group: typ}}})
		}
	}
	return ds
}

func TestParseSplit(t *testing.T) {
	for in, want := range map[string]Split{"": SplitAll, "all": SplitAll, "tune": SplitTune, "validate": SplitValidate} {
		if got, err := ParseSplit(in); err != nil || got != want {
			t.Errorf("ParseSplit(%q)=%q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseSplit("train"); err == nil {
		t.Error("ParseSplit(train): no error")
	}
}

func TestHalvesDeterministicDisjointCovering(t *testing.T) {
	ds := lmeDataset(map[string]int{"multi-session": 13, "temporal-reasoning": 7, "knowledge-update": 8, "single-session-user": 1})
	first := ds.Halves()
	// The order of the file does not matter.
	shuffled := &Dataset{Name: ds.Name, Spaces: append([]Space(nil), ds.Spaces...)}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled.Spaces), func(i, j int) {
		shuffled.Spaces[i], shuffled.Spaces[j] = shuffled.Spaces[j], shuffled.Spaces[i]
	})
	second := shuffled.Halves()
	for id, h := range first {
		if second[id] != h {
			t.Errorf("space %s: %s, then %s after shuffling", id, h, second[id])
		}
	}

	tune, validate := ds.Half(SplitTune), ds.Half(SplitValidate)
	seen := map[string]Split{}
	for _, half := range []*Dataset{tune, validate} {
		for _, sp := range half.Spaces {
			if prev, ok := seen[sp.ID]; ok {
				t.Errorf("space %s in both %s and %s", sp.ID, prev, half.Split)
			}
			seen[sp.ID] = half.Split
		}
	}
	if len(seen) != len(ds.Spaces) {
		t.Errorf("halves hold %d spaces, want all %d", len(seen), len(ds.Spaces))
	}
	if d := len(tune.Spaces) - len(validate.Spaces); d < -1 || d > 1 {
		t.Errorf("tune %d, validate %d spaces: want at most one apart", len(tune.Spaces), len(validate.Spaces))
	}
	if all := ds.Half(SplitAll); all != ds {
		t.Error("Half(all) is not the dataset itself")
	}
}

func TestHalvesStratifiedByQuestionType(t *testing.T) {
	counts := map[string]int{"a": 10, "b": 5, "c": 7, "d": 2, "e": 1}
	ds := lmeDataset(counts)
	per := map[string]map[Split]int{}
	for _, sp := range ds.Half(SplitTune).Spaces {
		g := sp.Questions[0].Group
		if per[g] == nil {
			per[g] = map[Split]int{}
		}
		per[g][SplitTune]++
	}
	for _, sp := range ds.Half(SplitValidate).Spaces {
		g := sp.Questions[0].Group
		if per[g] == nil {
			per[g] = map[Split]int{}
		}
		per[g][SplitValidate]++
	}
	for typ, n := range counts {
		tn, vn := per[typ][SplitTune], per[typ][SplitValidate]
		if tn+vn != n || tn-vn < -1 || tn-vn > 1 {
			t.Errorf("type %s: tune %d, validate %d of %d; want halves at most one apart", typ, tn, vn, n)
		}
	}
}

// TestHalvesLoCoMoByConversation: LoCoMo conversations are one stratum
// whatever their questions' categories, and the split moves whole spaces.
func TestHalvesLoCoMoByConversation(t *testing.T) {
	ds := &Dataset{Name: "locomo"}
	for i := range 5 {
		ds.Spaces = append(ds.Spaces, Space{ID: fmt.Sprintf("conv-%d", i), Questions: []Question{{Group: "1"}, {Group: "4"}}})
	}
	tune, validate := ds.Half(SplitTune), ds.Half(SplitValidate)
	if len(tune.Spaces) != 3 || len(validate.Spaces) != 2 {
		t.Fatalf("tune %d, validate %d conversations; want 3 and 2", len(tune.Spaces), len(validate.Spaces))
	}
	for _, sp := range tune.Spaces {
		if len(sp.Questions) != 2 {
			t.Errorf("%s: %d questions, want its 2", sp.ID, len(sp.Questions))
		}
	}
}

// TestSplitHashFixed pins the halves of LoCoMo dev5 that bench/README.md
// quotes: a change to SplitSeed or the hash moves every half and every
// figure measured on one, and must be deliberate.
func TestSplitHashFixed(t *testing.T) {
	got := splitStrata(map[string][]string{"": {"conv-26", "conv-30", "conv-41", "conv-42", "conv-43"}}, SplitSeed)
	want := map[string]Split{"conv-26": SplitValidate, "conv-41": SplitValidate, "conv-30": SplitTune, "conv-42": SplitTune, "conv-43": SplitTune}
	for id, h := range want {
		if got[id] != h {
			t.Errorf("%s: %q, want %q", id, got[id], h)
		}
	}
	if len(got) != len(want) {
		t.Errorf("assigned %d ids, want %d", len(got), len(want))
	}
}
