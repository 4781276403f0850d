package retrieve

import (
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

func TestTopicPredicates(t *testing.T) {
	for _, tc := range []struct {
		query     string
		wantPred  string // one predicate the query must ask for ("" none)
		wantUsed  []string
		wantWords int // how many words the phrases used
	}{
		{"What's my job title?", "works_as", []string{"job", "title"}, 2},
		{"What does my husband do for a living?", "works_as", []string{"for", "a", "living"}, 3},
		{"Where does my sister work?", "works_at", []string{"work"}, 1},
		{"Which editor do I use?", "uses_editor", []string{"editor"}, 1},
		{"What's my favourite colour?", "favorite_*", []string{"favourite"}, 1},
		{"Who is my sister?", "", nil, 0},
		// "at work" says where, and asks for no employer.
		{"What programming language do I mostly write at work?", "", nil, 0},
		{"Where is my mom originally from?", "comes_from", []string{"originally"}, 1},
	} {
		t.Run(tc.query, func(t *testing.T) {
			preds, used := topicPredicates(words(tc.query))
			if tc.wantPred == "" {
				if len(preds) != 0 {
					t.Fatalf("preds=%v, want none", preds)
				}
				return
			}
			if !slices.Contains(preds, tc.wantPred) {
				t.Errorf("preds=%v, want %s among them", preds, tc.wantPred)
			}
			if len(used) != tc.wantWords {
				t.Errorf("used=%v, want %d words", used, tc.wantWords)
			}
			for _, w := range tc.wantUsed {
				if !used[w] {
					t.Errorf("used=%v lacks %q", used, w)
				}
			}
		})
	}
	// The question word picks, of a phrase that asks for a field and a
	// school, the one it asks about; a school word asks for the school.
	for _, tc := range []struct {
		query     string
		want, not string
	}{
		{"Where does Yaw study?", "studies_at", "major"},
		{"What does Yaw study?", "major", "studies_at"},
		{"Which university does Yaw study at?", "studies_at", ""},
	} {
		preds, _ := topicPredicates(words(tc.query))
		if !slices.Contains(preds, tc.want) || tc.not != "" && slices.Contains(preds, tc.not) {
			t.Errorf("%q: preds=%v, want %s and not %q", tc.query, preds, tc.want, tc.not)
		}
	}
	// "for a living" is read before "living" (lives_in).
	if preds, _ := topicPredicates(words("what does she do for a living")); slices.Contains(preds, "lives_in") {
		t.Errorf("preds=%v: the job phrase also read as a place", preds)
	}
}

func TestPredicateIn(t *testing.T) {
	preds := []string{"works_as", "favorite_*"}
	for pred, want := range map[string]bool{"works_as": true, "works_at": false, "favorite_color": true, "favorite": false} {
		if got := predicateIn(pred, preds); got != want {
			t.Errorf("predicateIn(%q)=%v, want %v", pred, got, want)
		}
	}
}

func TestAsksValue(t *testing.T) {
	for q, want := range map[string]bool{
		"What's my job title?":          true,
		"Where does my sister work?":    true,
		"Do I still work at Zalando?":   false,
		"Am I married to Sam?":          false,
		"Is Felix still my roommate?":   false,
		"and who is my manager now?":    true,
		"Tell me about my sister's job": false,
	} {
		if got := asksValue(words(q)); got != want {
			t.Errorf("asksValue(%q)=%v, want %v", q, got, want)
		}
	}
}

// TestRelationScoresTyped: a fact whose predicate is the attribute the
// query asks for scores 1 and is an answer; one with another predicate is
// not, even when a hint fragment matches it.
func TestRelationScoresTyped(t *testing.T) {
	job := &lore.Fact{ID: "f1", Predicate: "works_as", Object: "sommelier", Text: "Daniel works as a sommelier"}
	employer := &lore.Fact{ID: "f2", Predicate: "works_at", Object: "Le Cinq", Text: "Daniel works at Le Cinq"}
	typed, used := topicPredicates(words("What does my husband do for a living?"))
	if !used["living"] {
		t.Fatalf("used=%v", used)
	}
	scores, answers := relationScores([]*lore.Fact{job, employer}, nil, nil, questionHints(words("what does my husband do for a living")), typed)
	if scores["f1"] != 1 || !answers["f1"] {
		t.Errorf("job fact: score %v answer %v, want 1 and an answer", scores["f1"], answers["f1"])
	}
	if answers["f2"] {
		t.Errorf("employer fact is no answer to a job question")
	}
	if scores["f2"] != 1 {
		// "what … do" hints at works: the employer still matches the hint.
		t.Errorf("employer fact: score %v, want 1 from the hint", scores["f2"])
	}
}

// TestRelationScoresHinted: with no topic word, a fact matching the
// question word's hint is an answer ("What does my landlord's son do?").
func TestRelationScoresHinted(t *testing.T) {
	job := &lore.Fact{ID: "f1", Predicate: "works_as", Object: "plumber", Text: "Levan works as a plumber"}
	edge := &lore.Fact{ID: "f2", Predicate: "has_son", Object: "Levan", Text: "Levan is Giorgi's son"}
	ws := words("What does my landlord's son do?")
	typed, _ := topicPredicates(ws)
	if len(typed) != 0 {
		t.Fatalf("typed=%v, want none", typed)
	}
	_, answers := relationScores([]*lore.Fact{job}, []*lore.Fact{edge}, nil, questionHints(ws), typed)
	if !answers["f1"] || answers["f2"] {
		t.Errorf("answers=%v, want the job fact only", answers)
	}
}

func TestApplyAnswerBoost(t *testing.T) {
	c := &candidateSet{answers: map[string]bool{"f1": true, "gone": true}}
	f := fused{Scores: map[string]float64{"f1": 0.3, "e1": 0.9}, Details: map[string]map[string]float64{}}
	applyAnswerBoost(c, f, 0.5)
	if f.Scores["f1"] != 0.8 || f.Scores["e1"] != 0.9 || f.Details["f1"][SignalAnswer] != 0.5 {
		t.Errorf("scores=%v details=%v", f.Scores, f.Details)
	}
	if _, ok := f.Scores["gone"]; ok {
		t.Error("an answer that is no candidate became one")
	}
}

func TestKnownRole(t *testing.T) {
	for _, tc := range []struct {
		role []string
		want bool
	}{{[]string{"mom", "do", "work"}, true}, {[]string{"sisters"}, true}, {[]string{"job", "title"}, false}, {[]string{"major"}, false}} {
		if got := knownRole(tc.role); got != tc.want {
			t.Errorf("knownRole(%v)=%v, want %v", tc.role, got, tc.want)
		}
	}
}

// TestQuestionHintsDoAsMainVerb: "do" asks for a job only as the main verb
// ("What does my sister do?"), not as the auxiliary of another verb.
func TestQuestionHintsDoAsMainVerb(t *testing.T) {
	for q, job := range map[string]bool{
		"What does my sister's husband do?":  true,
		"What do I do for a living?":         true,
		"What instrument do I play?":         false,
		"What car do I drive now?":           false,
		"What sport do I do these days?":     false,
		"What did my brother do after that?": true,
	} {
		if got := slices.Contains(questionHints(words(q)), "job"); got != job {
			t.Errorf("questionHints(%q) asks for a job: %v, want %v", q, got, job)
		}
	}
}
