package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// zhLabelledSet is the part of a fixtures/zh file this test reads: each
// user's sessions and the relation facts labelled for them.
type zhLabelledSet struct {
	Users []struct {
		ID       string `json:"id"`
		Sessions []struct {
			Time     time.Time `json:"time"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		} `json:"sessions"`
		Facts []struct {
			Subject   string `json:"subject"`
			Predicate string `json:"predicate"`
			Object    string `json:"object"`
			Ended     bool   `json:"ended"`
		} `json:"facts"`
	} `json:"users"`
}

// TestChineseFactQuality extracts every user of fixtures/zh session by
// session, as ingestion does (each session one request that sees the facts
// and entities of the sessions before it), and compares the relation facts
// (every predicate but statement) with the labels: at least 0.8 of the
// labelled facts must be extracted, and at most 0.1 of the extracted ones
// may be unlabelled (wrong). A fact matches a label when subject, predicate,
// object and whether it has ended are the same.
func TestChineseFactQuality(t *testing.T) {
	for _, half := range []string{"tune", "validate"} {
		t.Run(half, func(t *testing.T) {
			data, err := os.ReadFile("../../fixtures/zh/" + half + ".json")
			if err != nil {
				t.Fatalf("read fixture: %v", err)
			}
			var set zhLabelledSet
			if err := json.Unmarshal(data, &set); err != nil {
				t.Fatalf("decode fixture: %v", err)
			}
			var labels, found, extracted, wrong int
			for _, u := range set.Users {
				want := map[string]bool{}
				for _, f := range u.Facts {
					want[zhFactKey(f.Subject, f.Predicate, f.Object, f.Ended)] = true
				}
				got := zhExtractUser(t, u.Sessions)
				for k := range got {
					extracted++
					if !want[k] {
						wrong++
						t.Logf("%s: extracted %s, not labelled", u.ID, k)
					}
				}
				for k := range want {
					labels++
					if got[k] {
						found++
					} else {
						t.Logf("%s: labelled %s, not extracted", u.ID, k)
					}
				}
			}
			recall, wrongRate := float64(found)/float64(labels), float64(wrong)/float64(max(extracted, 1))
			t.Logf("%s: %d labelled facts, %d extracted: %.3f of labels extracted, %.3f of extracted wrong", half, labels, extracted, recall, wrongRate)
			if recall < 0.8 || wrongRate > 0.1 {
				t.Errorf("%s: %.3f of labelled facts extracted (want ≥ 0.8), %.3f of extracted facts wrong (want ≤ 0.1)", half, recall, wrongRate)
			}
		})
	}
}

func zhFactKey(s, p, o string, ended bool) string {
	k := fmt.Sprintf("(%s %s %s)", s, p, o)
	if ended {
		k += " ended"
	}
	return k
}

// zhExtractUser runs the extractor over a user's sessions in order and
// returns the keys of the relation facts it gave.
func zhExtractUser(t *testing.T, sessions []struct {
	Time     time.Time `json:"time"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	var ents []*lore.Entity
	var facts []*lore.Fact
	for si, s := range sessions {
		var eps []*lore.Episode
		for mi, m := range s.Messages {
			eps = append(eps, &lore.Episode{ID: fmt.Sprintf("s%d-m%d", si, mi), Role: m.Role, Content: m.Content, OccurredAt: s.Time.Add(time.Duration(mi) * time.Minute)})
		}
		ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: eps, Entities: ents, Facts: facts})
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		for _, e := range ex.Entities {
			ents = append(ents, &lore.Entity{Name: e.Name, Type: e.Type})
		}
		for _, f := range ex.Facts {
			if f.Predicate == "statement" {
				continue
			}
			got[zhFactKey(f.Subject, f.Predicate, f.Object, f.InvalidAt != nil)] = true
			if f.InvalidAt == nil {
				facts = append(facts, &lore.Fact{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object, Text: f.Text})
			}
		}
	}
	return got
}
