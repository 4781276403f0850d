package retrieve_test

import (
	"context"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// verdicts records n verdicts on a memory, with query q.
func verdicts(t *testing.T, st lore.FeedbackStore, sc lore.Scope, id string, helpful bool, q string, n int) {
	t.Helper()
	for range n {
		v := lore.Verdict{Scope: sc, MemoryID: id, Helpful: helpful, QueryHash: lore.QueryHash(q)}
		if _, err := st.RecordVerdict(context.Background(), &v, lore.DefaultFeedbackRule()); err != nil {
			t.Fatalf("RecordVerdict: %v", err)
		}
	}
}

func TestSignalsOffKeepRankings(t *testing.T) {
	s := seed(t, nil)
	base := s.w.pipeline()
	req := retrieve.Request{Scope: s.alice, Query: "Tell me about Caroline", TopK: 20, Explain: true}
	want := resultIDs(search(t, base, req).Results)
	if len(want) < 3 {
		t.Fatalf("results=%v, want at least 3 for the test", want)
	}
	// State for the last result, and a pipeline with the store but every
	// signal off.
	verdicts(t, s.w.store, s.alice, want[len(want)-1], true, req.Query, 4)
	withStore := s.w.pipeline()
	withStore.Feedback = s.w.store
	resp := search(t, withStore, req)
	if got := resultIDs(resp.Results); !slices.Equal(got, want) {
		t.Fatalf("signals off with state: %v, want %v", got, want)
	}
	for _, r := range resp.Results {
		for _, k := range []string{retrieve.SignalPersonal, retrieve.SignalFrequency, retrieve.SignalSuccess, retrieve.SignalRelevance} {
			if _, ok := r.ScoreDetails[k]; ok {
				t.Fatalf("signals off: %s shows %s", r.ID, k)
			}
		}
	}
}

func TestFeedbackLiftsHelpfulMemory(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	p.Feedback = s.w.store
	req := retrieve.Request{Scope: s.alice, Query: "Tell me about Caroline", TopK: 20, Explain: true}
	before := resultIDs(search(t, p, req).Results)
	low := before[len(before)-1]
	verdicts(t, s.w.store, s.alice, low, true, "", 4)
	verdicts(t, s.w.store, s.alice, before[0], false, "", 3)

	p.Config.Personal.Feedback = true
	resp := search(t, p, req)
	after := resultIDs(resp.Results)
	if slices.Index(after, low) >= slices.Index(before, low) {
		t.Fatalf("helpful memory at %d after feedback, was %d; want higher", slices.Index(after, low), slices.Index(before, low))
	}
	for _, r := range resp.Results {
		if r.ID == low && r.ScoreDetails[retrieve.SignalRelevance] != 1.6 {
			t.Fatalf("relevance shown %v, want 1.6", r.ScoreDetails[retrieve.SignalRelevance])
		}
		if r.ID == before[0] && r.ScoreDetails[retrieve.SignalRelevance] != 0.7 {
			t.Fatalf("relevance of the unhelpful memory %v, want 0.7", r.ScoreDetails[retrieve.SignalRelevance])
		}
	}
}

func TestSuccessNeedsMinSample(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	p.Feedback = s.w.store
	p.Config.Personal.Success = 1
	req := retrieve.Request{Scope: s.alice, Query: "Tell me about Caroline", TopK: 20, Explain: true}
	before := resultIDs(search(t, p, req).Results)
	low := before[len(before)-1]
	verdicts(t, s.w.store, s.alice, low, true, "tell me about caroline!", 2)
	if got := resultIDs(search(t, p, req).Results); !slices.Equal(got, before) {
		t.Fatalf("2 verdicts (< min sample 3) moved the ranking: %v, was %v", got, before)
	}
	verdicts(t, s.w.store, s.alice, low, true, "Tell me about Caroline", 1)
	resp := search(t, p, req)
	if got := resultIDs(resp.Results); slices.Index(got, low) >= slices.Index(before, low) {
		t.Fatalf("3 verdicts for the same normalised query: %s at %d, was %d; want higher", low, slices.Index(got, low), slices.Index(before, low))
	}
	// Another query does not see the record.
	other := retrieve.Request{Scope: s.alice, Query: "Caroline", TopK: 20}
	p2 := s.w.pipeline()
	if got, want := resultIDs(search(t, p, other).Results), resultIDs(search(t, p2, other).Results); !slices.Equal(got, want) {
		t.Fatalf("success lifted %s for another query", low)
	}
}

func TestTrackUsageCountsReturnedAndUsed(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	p.Feedback = s.w.store
	p.Config.Personal.TrackUsage = true
	p.Config.Personal.Frequency = 1
	req := retrieve.Request{Scope: s.alice, Query: "Where does Caroline live?", TopK: 3}
	first := resultIDs(search(t, p, req).Results)
	req.Used = []string{first[1]}
	search(t, p, req)
	sig, err := s.w.store.MemorySignals(context.Background(), s.alice, first, "")
	if err != nil {
		t.Fatal(err)
	}
	if m := sig[first[1]]; m.Returned < 1 || m.Cited != 1 {
		t.Fatalf("usage of %s = %+v, want returned ≥ 1 and cited 1", first[1], m)
	}
	if m := sig[first[0]]; m.Returned != 2 || m.Cited != 0 {
		t.Fatalf("usage of %s = %+v, want returned 2", first[0], m)
	}
}

func TestSuccessPenaltyForTheSameQueryOnly(t *testing.T) {
	s := seed(t, nil)
	p := s.w.pipeline()
	p.Feedback = s.w.store
	p.Config.Personal.Success = 1
	req := retrieve.Request{Scope: s.alice, Query: "Tell me about Caroline", TopK: 20, Explain: true}
	before := resultIDs(search(t, p, req).Results)
	verdicts(t, s.w.store, s.alice, before[0], false, req.Query, 1)
	resp := search(t, p, req)
	if got := resultIDs(resp.Results); got[0] == before[0] {
		t.Fatalf("one unhelpful verdict for this query left %s first", before[0])
	}
	for _, r := range resp.Results {
		if want := p.Config.Personal.SuccessPenalty; r.ID == before[0] && r.ScoreDetails[retrieve.SignalSuccessPenalty] != want {
			t.Fatalf("penalty shown %v, want %v", r.ScoreDetails[retrieve.SignalSuccessPenalty], want)
		}
	}
	other := retrieve.Request{Scope: s.alice, Query: "Caroline", TopK: 20}
	if got, want := resultIDs(search(t, p, other).Results), resultIDs(search(t, s.w.pipeline(), other).Results); !slices.Equal(got, want) {
		t.Fatalf("the penalty moved another query's results")
	}
}
