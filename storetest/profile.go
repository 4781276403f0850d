package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// ProfileBackend is a store that also holds profiles.
type ProfileBackend interface {
	lore.Store
	lore.ProfileStore
}

// RunProfile runs the conformance suite for lore.ProfileStore against one
// backend: the precedence rules (explicit beats inferred, a newer explicit
// value replaces an older one and history keeps both, no inferred entry
// under lore.ProfileFloor), multi-valued keys, scopes and erasure. open is
// called once and registers its own cleanup.
func RunProfile(t *testing.T, backend string, open func(testing.TB) ProfileBackend) {
	t.Helper()
	st := open(t)
	s := suite{t: t, backend: backend}

	put := func(t *testing.T, sc lore.Scope, e lore.ProfileEntry) lore.ProfileWrite {
		t.Helper()
		w, err := st.PutProfileEntry(ctxFor(t), sc, e)
		must(t, "PutProfileEntry", err)
		return w
	}
	entries := func(t *testing.T, sc lore.Scope) []lore.ProfileEntry {
		t.Helper()
		got, err := st.ProfileEntries(ctxFor(t), sc)
		must(t, "ProfileEntries", err)
		return got
	}
	values := func(es []lore.ProfileEntry) []string {
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = e.Key + "=" + e.Value + "/" + string(e.Source)
		}
		return out
	}
	fresh := func(t *testing.T) lore.Scope {
		sc := userScope()
		cleanupStore(t, st, sc)
		return sc
	}

	s.run("Profile/ExplicitBeatsInferred", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: "vegetarian", Source: lore.ProfileExplicit, Evidence: []string{"ep1"}, UpdatedAt: at(1)})
		w := put(t, sc, lore.ProfileEntry{Key: "diet", Value: "omnivore", Source: lore.ProfileInferred, Confidence: 0.95, Evidence: []string{"query:x"}, UpdatedAt: at(5)})
		if w.Written {
			t.Errorf("inferred omnivore over explicit vegetarian: Written=true, want false")
		}
		// Not even the same value: an inferred read never touches an explicit entry.
		if w := put(t, sc, lore.ProfileEntry{Key: "diet", Value: "Vegetarian", Source: lore.ProfileInferred, Confidence: 0.9, UpdatedAt: at(6)}); w.Written {
			t.Errorf("inferred vegetarian over explicit vegetarian: Written=true, want false")
		}
		got := entries(t, sc)
		sameList(t, "entries", values(got), []string{"diet=vegetarian/explicit"})
		if len(got) == 1 {
			sameList(t, "evidence", got[0].Evidence, []string{"ep1"})
			sameTime(t, "UpdatedAt", got[0].UpdatedAt, at(1))
			if got[0].Confidence != 1 {
				t.Errorf("explicit Confidence=%v, want 1 (the default)", got[0].Confidence)
			}
		}
		hist, err := st.ProfileHistory(ctxFor(t), sc, "diet")
		must(t, "ProfileHistory", err)
		if len(hist) != 0 {
			t.Errorf("history=%v, want none (nothing was replaced)", values(hist))
		}
	})

	s.run("Profile/NewerExplicitReplacesKeepsHistory", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "occupation", Value: "nurse", UpdatedAt: at(1)})
		w := put(t, sc, lore.ProfileEntry{Key: "occupation", Value: "midwife", UpdatedAt: at(2)})
		if !w.Written || len(w.Replaced) != 1 || w.Replaced[0].Value != "nurse" {
			t.Fatalf("write=%+v, want written, replacing nurse", w)
		}
		// An older explicit value arriving late does not win.
		if w := put(t, sc, lore.ProfileEntry{Key: "occupation", Value: "teacher", UpdatedAt: at(0)}); w.Written {
			t.Errorf("older explicit value: Written=true, want false")
		}
		sameList(t, "entries", values(entries(t, sc)), []string{"occupation=midwife/explicit"})
		hist, err := st.ProfileHistory(ctxFor(t), sc, "occupation")
		must(t, "ProfileHistory", err)
		sameList(t, "history", values(hist), []string{"occupation=nurse/explicit"})
		if len(hist) == 1 {
			sameTime(t, "history UpdatedAt", hist[0].UpdatedAt, at(1))
			if hist[0].ReplacedAt == nil {
				t.Errorf("history ReplacedAt=nil, want set")
			}
		}
		all, err := st.ProfileHistory(ctxFor(t), sc, "")
		must(t, "ProfileHistory(all)", err)
		if len(all) != 1 {
			t.Errorf("ProfileHistory(\"\")=%d entries, want 1", len(all))
		}
	})

	s.run("Profile/ExplicitReplacesInferred", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: "omnivore", Source: lore.ProfileInferred, Confidence: 0.7, UpdatedAt: at(1)})
		w := put(t, sc, lore.ProfileEntry{Key: "diet", Value: "vegan", Source: lore.ProfileExplicit, UpdatedAt: at(2)})
		if !w.Written {
			t.Fatalf("explicit over inferred: %+v, want written", w)
		}
		sameList(t, "entries", values(entries(t, sc)), []string{"diet=vegan/explicit"})
		hist, err := st.ProfileHistory(ctxFor(t), sc, "diet")
		must(t, "ProfileHistory", err)
		sameList(t, "history", values(hist), []string{"diet=omnivore/inferred"})
	})

	s.run("Profile/InferredFloor", func(t *testing.T) {
		sc := fresh(t)
		if w := put(t, sc, lore.ProfileEntry{Key: "interest", Value: "jazz", Source: lore.ProfileInferred, Confidence: 0.49}); w.Written {
			t.Errorf("confidence 0.49: Written=true, want false")
		}
		if w := put(t, sc, lore.ProfileEntry{Key: "budget", Value: "low", Source: lore.ProfileInferred, Confidence: 0.2}); w.Written {
			t.Errorf("confidence 0.2: Written=true, want false")
		}
		if n := len(entries(t, sc)); n != 0 {
			t.Fatalf("entries=%d after inferences below the floor, want 0", n)
		}
		if w := put(t, sc, lore.ProfileEntry{Key: "interest", Value: "jazz", Source: lore.ProfileInferred, Confidence: 0.5}); !w.Written {
			t.Errorf("confidence 0.5: Written=false (%s), want true", w.Reason)
		}
		sameList(t, "entries", values(entries(t, sc)), []string{"interest=jazz/inferred"})
	})

	s.run("Profile/InferredVersusInferred", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "budget", Value: "low", Source: lore.ProfileInferred, Confidence: 0.8, UpdatedAt: at(1)})
		if w := put(t, sc, lore.ProfileEntry{Key: "budget", Value: "high", Source: lore.ProfileInferred, Confidence: 0.6, UpdatedAt: at(2)}); w.Written {
			t.Errorf("weaker inferred value: Written=true, want false")
		}
		if w := put(t, sc, lore.ProfileEntry{Key: "budget", Value: "moderate", Source: lore.ProfileInferred, Confidence: 0.8, UpdatedAt: at(3)}); !w.Written {
			t.Errorf("as confident inferred value: Written=false, want true")
		}
		sameList(t, "entries", values(entries(t, sc)), []string{"budget=moderate/inferred"})
	})

	s.run("Profile/SameValueMerges", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "level_climbing", Value: "beginner", Source: lore.ProfileInferred, Confidence: 0.6, Evidence: []string{"query:a"}, UpdatedAt: at(1)})
		put(t, sc, lore.ProfileEntry{Key: "level_climbing", Value: "beginner", Source: lore.ProfileInferred, Confidence: 0.7, Evidence: []string{"query:b", "query:a"}, UpdatedAt: at(2)})
		got := entries(t, sc)
		if len(got) != 1 {
			t.Fatalf("entries=%v, want one", values(got))
		}
		sameList(t, "evidence", got[0].Evidence, []string{"query:a", "query:b"})
		if got[0].Confidence != 0.7 {
			t.Errorf("Confidence=%v, want 0.7", got[0].Confidence)
		}
		sameTime(t, "UpdatedAt", got[0].UpdatedAt, at(2))
		put(t, sc, lore.ProfileEntry{Key: "level_climbing", Value: "Beginner", Source: lore.ProfileExplicit, Evidence: []string{"ep9"}, UpdatedAt: at(3)})
		got = entries(t, sc)
		sameList(t, "entries", values(got), []string{"level_climbing=Beginner/explicit"})
		if len(got) == 1 {
			sameList(t, "evidence", got[0].Evidence, []string{"query:a", "query:b", "ep9"})
		}
	})

	s.run("Profile/MultiValuedKeepsSet", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "allergy", Value: "peanuts", UpdatedAt: at(1)})
		put(t, sc, lore.ProfileEntry{Key: "allergy", Value: "shellfish", UpdatedAt: at(2)})
		put(t, sc, lore.ProfileEntry{Key: "allergy", Value: "penicillin", Source: lore.ProfileInferred, Confidence: 0.6, UpdatedAt: at(3)})
		put(t, sc, lore.ProfileEntry{Key: "place", Value: "Lisbon", Source: lore.ProfileInferred, Confidence: 0.6, UpdatedAt: at(3)})
		sameList(t, "entries", values(entries(t, sc)), []string{
			"allergy=peanuts/explicit", "allergy=penicillin/inferred", "allergy=shellfish/explicit", "place=Lisbon/inferred"})
		n, err := st.DeleteProfileKey(ctxFor(t), sc, "allergy")
		must(t, "DeleteProfileKey", err)
		if n != 3 {
			t.Errorf("DeleteProfileKey=%d, want 3", n)
		}
		sameList(t, "entries after delete", values(entries(t, sc)), []string{"place=Lisbon/inferred"})
		_, err = st.DeleteProfileKey(ctxFor(t), sc, "allergy")
		wantCode(t, "DeleteProfileKey(again)", err, lore.ENOTFOUND)
	})

	s.run("Profile/DeleteKeyForgetsHistory", func(t *testing.T) {
		sc := fresh(t)
		put(t, sc, lore.ProfileEntry{Key: "location", Value: "Paris", UpdatedAt: at(1)})
		put(t, sc, lore.ProfileEntry{Key: "location", Value: "Rome", UpdatedAt: at(2)})
		_, err := st.DeleteProfileKey(ctxFor(t), sc, "location")
		must(t, "DeleteProfileKey", err)
		hist, err := st.ProfileHistory(ctxFor(t), sc, "location")
		must(t, "ProfileHistory", err)
		if len(hist) != 0 {
			t.Errorf("history after delete=%v, want none", values(hist))
		}
	})

	s.run("Profile/ScopesApart", func(t *testing.T) {
		sc := fresh(t)
		bob := lore.Scope{TenantID: sc.TenantID, UserID: "bob"}
		other := lore.Scope{TenantID: newTenant(), UserID: sc.UserID}
		cleanupStore(t, st, bob, other)
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: "vegan"})
		put(t, bob, lore.ProfileEntry{Key: "diet", Value: "omnivore"})
		sameList(t, "alice", values(entries(t, sc)), []string{"diet=vegan/explicit"})
		sameList(t, "bob", values(entries(t, bob)), []string{"diet=omnivore/explicit"})
		if n := len(entries(t, other)); n != 0 {
			t.Errorf("alice of another tenant: %d entries, want 0", n)
		}
		// An agent names no profile of its own; the user's is the same
		// through any agent.
		withAgent := sc
		withAgent.AgentID = "bot"
		sameList(t, "alice via agent", values(entries(t, withAgent)), []string{"diet=vegan/explicit"})
		_, err := st.ProfileEntries(ctxFor(t), lore.Scope{TenantID: sc.TenantID, AgentID: "bot"})
		wantCode(t, "ProfileEntries(agent only)", err, lore.EINVALID)
	})

	s.run("Profile/EraseRemovesProfile", func(t *testing.T) {
		sc := userScope()
		ctx := ctxFor(t)
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: "vegan", UpdatedAt: at(1)})
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: "vegetarian", UpdatedAt: at(2)})
		// Erasing one agent's memories of the user leaves the profile.
		_, err := st.DeleteScope(ctx, lore.Scope{TenantID: sc.TenantID, UserID: sc.UserID, AgentID: "bot"})
		must(t, "DeleteScope(user+agent)", err)
		if n := len(entries(t, sc)); n != 1 {
			t.Errorf("entries after an agent erase=%d, want 1", n)
		}
		_, err = st.DeleteScope(ctx, sc)
		must(t, "DeleteScope(user)", err)
		if n := len(entries(t, sc)); n != 0 {
			t.Errorf("entries after erase=%d, want 0", n)
		}
		hist, err := st.ProfileHistory(ctx, sc, "")
		must(t, "ProfileHistory", err)
		if len(hist) != 0 {
			t.Errorf("history after erase=%d, want 0", len(hist))
		}
		// A tenant erase takes every user's profile.
		tenant := lore.Scope{TenantID: newTenant(), UserID: "carol"}
		put(t, tenant, lore.ProfileEntry{Key: "pet", Value: "dog"})
		_, err = st.DeleteScope(ctx, lore.Scope{TenantID: tenant.TenantID})
		must(t, "DeleteScope(tenant)", err)
		if n := len(entries(t, tenant)); n != 0 {
			t.Errorf("entries after tenant erase=%d, want 0", n)
		}
	})

	s.run("Profile/RejectsInvalid", func(t *testing.T) {
		sc := fresh(t)
		ctx := ctxFor(t)
		for _, c := range []struct {
			name string
			sc   lore.Scope
			e    lore.ProfileEntry
		}{
			{"no user", lore.Scope{TenantID: sc.TenantID, AgentID: "bot"}, lore.ProfileEntry{Key: "diet", Value: "vegan"}},
			{"no key", sc, lore.ProfileEntry{Key: "  ", Value: "vegan"}},
			{"no value", sc, lore.ProfileEntry{Key: "diet", Value: " "}},
			{"confidence", sc, lore.ProfileEntry{Key: "diet", Value: "vegan", Confidence: 1.5}},
			{"source", sc, lore.ProfileEntry{Key: "diet", Value: "vegan", Source: "guessed"}},
			{"control", sc, lore.ProfileEntry{Key: "diet", Value: "veg\x00an"}},
		} {
			_, err := st.PutProfileEntry(ctx, c.sc, c.e)
			wantCode(t, c.name, err, lore.EINVALID)
		}
		if n := len(entries(t, sc)); n != 0 {
			t.Errorf("entries after invalid writes=%d, want 0", n)
		}
	})

	s.run("Profile/LongestValue", func(t *testing.T) {
		// The limit is on the value as given: a store (or an encryption
		// layer before it) that keeps a longer form still takes it.
		sc := fresh(t)
		long := strings.Repeat("gluten free ", lore.MaxProfileValue/12) + strings.Repeat("x", lore.MaxProfileValue%12)
		if len(long) != lore.MaxProfileValue {
			t.Fatalf("test value is %d bytes, want %d", len(long), lore.MaxProfileValue)
		}
		_, err := st.PutProfileEntry(ctxFor(t), sc, lore.ProfileEntry{Key: "diet", Value: long + "y"})
		wantCode(t, "PutProfileEntry(one byte too long)", err, lore.EINVALID)
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: long, UpdatedAt: at(1)})
		// The same value again, spaced and cased differently, merges.
		put(t, sc, lore.ProfileEntry{Key: "diet", Value: "  " + strings.ToUpper(long), UpdatedAt: at(2)})
		sameList(t, "entries", values(entries(t, sc)), []string{"diet=" + strings.ToUpper(long) + "/explicit"})
	})

	s.run("Profile/KeyAndTimeStored", func(t *testing.T) {
		sc := fresh(t)
		w := put(t, sc, lore.ProfileEntry{Key: "Level Climbing", Value: "  intermediate  ", Source: lore.ProfileInferred, Confidence: 0.75, Evidence: []string{"query:q1"}})
		if !w.Written || w.Entry.Key != "level_climbing" || w.Entry.Value != "intermediate" {
			t.Fatalf("write=%+v, want level_climbing=intermediate", w)
		}
		got := entries(t, sc)
		if len(got) != 1 {
			t.Fatalf("entries=%v, want 1", values(got))
		}
		if got[0].UpdatedAt.IsZero() || time.Since(got[0].UpdatedAt) > time.Hour {
			t.Errorf("UpdatedAt=%v, want about now", got[0].UpdatedAt)
		}
		sameTime(t, "UpdatedAt as written", got[0].UpdatedAt, w.Entry.UpdatedAt)
		if got[0].Confidence != 0.75 || got[0].Source != lore.ProfileInferred {
			t.Errorf("entry=%+v, want confidence 0.75 inferred", got[0])
		}
	})
}
