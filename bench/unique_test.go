package bench_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/retrieve"
)

// TestUniqueAnswerOnBenchmarks checks the unique-answer rules
// (retrieve/unique_answer.txt) against questions written by others: every
// LoCoMo question and every LongMemEval question outside the
// single-session-preference type asks for something recorded, so none may
// be personalized; every single-session-preference question asks for advice
// that depends on the user, so each must be. It runs when the LoCoMo dev file
// is given (LORE_FQ_DATA, as scripts/test-all.sh sets it; LongMemEval's
// oracle file is read from beside it, or LORE_UNIQUE_LME), and under CI=true
// fails without it:
//
//	LORE_FQ_DATA=$PWD/../shared/bench/locomo/locomo_dev5.json go test -run TestUniqueAnswerOnBenchmarks -v ./bench
func TestUniqueAnswerOnBenchmarks(t *testing.T) {
	locomo := os.Getenv("LORE_FQ_DATA")
	if locomo == "" {
		msg := "set LORE_FQ_DATA to the LoCoMo dev file (../shared/bench/locomo/locomo_dev5.json) to check the unique-answer rules"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (required under CI=true)")
		}
		t.Skip(msg)
	}
	lme := os.Getenv("LORE_UNIQUE_LME")
	if lme == "" {
		lme = filepath.Join(filepath.Dir(filepath.Dir(locomo)), "longmemeval", "longmemeval_oracle.json.gz")
	}
	type tally struct{ n, wrong int }
	counts := map[string]*tally{}
	check := func(set, group, q string, wantUnique bool) {
		k := set + " " + group
		if counts[k] == nil {
			counts[k] = &tally{}
		}
		counts[k].n++
		if retrieve.UniqueAnswer(q) != wantUnique {
			counts[k].wrong++
			t.Errorf("%s: UniqueAnswer(%q)=%v, want %v", k, q, !wantUnique, wantUnique)
		}
	}
	for _, src := range []struct {
		name string
		load func() (*bench.Dataset, error)
	}{
		{"locomo", func() (*bench.Dataset, error) { return bench.LoadLoCoMo(locomo) }},
		{"longmemeval", func() (*bench.Dataset, error) { return bench.LoadLongMemEval(lme, true) }},
	} {
		ds, err := src.load()
		if err != nil {
			t.Fatal(err)
		}
		for _, sp := range ds.Spaces {
			for _, q := range sp.Questions {
				check(src.name, q.Group, q.Text, q.Group != "single-session-preference")
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		c := counts[k]
		t.Logf("%s: %d questions, %d misclassified", k, c.n, c.wrong)
	}
}
