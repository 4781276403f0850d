package llm_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/llm/llmtest"
)

func TestParseProfileReply(t *testing.T) {
	for _, c := range []struct {
		name, reply string
		want        []string // key=value@queries
		err         bool
	}{
		{"kept", `{"entries":[{"key":"diet","value":"vegan","confidence":0.7,"queries":[1,3]}]}`, []string{"diet=vegan@[0 2]"}, false},
		{"under the floor", `{"entries":[{"key":"budget","value":"low","confidence":0.49,"queries":[1]}]}`, nil, false},
		{"no confidence", `{"entries":[{"key":"budget","value":"low","queries":[1]}]}`, nil, false},
		{"undocumented key", `{"entries":[{"key":"shoe_size","value":"42","confidence":0.9,"queries":[1]}]}`, nil, false},
		{"level key", `{"entries":[{"key":"level_climbing","value":"beginner","confidence":0.6,"queries":[2]}]}`, []string{"level_climbing=beginner@[1]"}, false},
		{"cites no query of the batch", `{"entries":[{"key":"diet","value":"vegan","confidence":0.9,"queries":[0,4]}]}`, nil, false},
		{"fenced", "```json\n{\"entries\":[]}\n```", nil, false},
		{"not json", `vegan, probably`, nil, true},
	} {
		got, err := llm.ParseProfileReply(c.reply, 3)
		if (err != nil) != c.err {
			t.Errorf("%s: err=%v, want error=%v", c.name, err, c.err)
			continue
		}
		var render []string
		for _, s := range got {
			render = append(render, s.Key+"="+s.Value+"@"+fmtInts(s.Queries))
		}
		if len(render) != len(c.want) || (len(render) > 0 && render[0] != c.want[0]) {
			t.Errorf("%s: got %v, want %v", c.name, render, c.want)
		}
	}
}

func fmtInts(v []int) string {
	s := "["
	for i, x := range v {
		if i > 0 {
			s += " "
		}
		s += string(rune('0' + x))
	}
	return s + "]"
}

// TestProfileInferrerReplays replays the profile-v1 fixture and fails
// cleanly (an error the job queue retries) on a 500 or a timeout.
func TestProfileInferrerReplays(t *testing.T) {
	srv := llmtest.New(t, llmtest.FixtureDir())
	inf, err := llm.NewProfileInferrer(llm.Config{BaseURL: srv.URL, Model: "lore-test-model", Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"easy lentil dinners without any animal products", "trains from Lisbon to Sintra on weekends", "where to buy nutritional yeast and tempeh"}
	current := []lore.ProfileEntry{{Key: "location", Value: "Porto", Source: lore.ProfileExplicit, Confidence: 1}}
	got, err := inf.InferProfile(context.Background(), queries, current)
	if err != nil {
		t.Fatalf("InferProfile: %v", err)
	}
	if len(got) != 3 || got[0].Key != "diet" || got[0].Value != "vegan" {
		t.Errorf("InferProfile=%+v, want diet, place and location (budget and the unknown key dropped)", got)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].ResponseFormat != "json_object" {
		t.Errorf("requests=%+v, want one asking for a JSON object", reqs)
	}
	if got, err := inf.InferProfile(context.Background(), nil, current); err != nil || got != nil || len(srv.Requests()) != 1 {
		t.Errorf("InferProfile(no queries)=%v, %v; want nothing and no call", got, err)
	}
	for name, b := range map[string]llmtest.Behavior{
		"500":     {Status: http.StatusInternalServerError},
		"timeout": {Delay: 2 * time.Second},
	} {
		srv.Then(b)
		if _, err := inf.InferProfile(context.Background(), queries, current); err == nil {
			t.Errorf("%s: InferProfile err=nil, want an error", name)
		}
	}
}
