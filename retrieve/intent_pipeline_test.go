package retrieve_test

import (
	"testing"

	"github.com/lore-memory/lore/retrieve"
)

func TestExplainShowsIntent(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	resp := search(t, p, retrieve.Request{Scope: s.alice, Query: "Where does Caroline live?", Explain: true})
	if resp.Intent == nil || resp.Intent.Intent != retrieve.IntentFactual {
		t.Fatalf("intent = %+v, want FACTUAL", resp.Intent)
	}
	if resp := search(t, p, retrieve.Request{Scope: s.alice, Query: "Where does Caroline live?"}); resp.Intent != nil {
		t.Fatalf("intent without explain = %+v, want none", resp.Intent)
	}
}
