package crypt_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/storetest"
)

// The profile suite passes through the encryption layer: precedence,
// deduplication by value and history work on sealed values.
func TestProfileConformance(t *testing.T) {
	key := master(t)
	storetest.RunProfile(t, "sqlite+crypt", func(tb testing.TB) storetest.ProfileBackend {
		s, _, _ := open(tb, tb.TempDir(), key)
		return s
	})
}

// TestProfileSealed: no profile value, current or replaced, nor a query
// hash in the evidence, is in the database file or its WAL; they read back in the clear, a restated value
// merges into its entry, the user's tokens differ from another user's of
// the same value, and the cohort read opens them too.
func TestProfileSealed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _, raw := open(t, dir, master(t))
	alice := lore.Scope{TenantID: "t1", UserID: "alice"}
	bob := lore.Scope{TenantID: "t1", UserID: "bob"}
	long := strings.Repeat("Marrakech ", lore.MaxProfileValue/10)
	evidence := lore.QueryEvidence("bouldering gyms near me")
	for _, w := range []struct {
		sc lore.Scope
		e  lore.ProfileEntry
	}{
		{alice, lore.ProfileEntry{Key: "location", Value: "Ouagadougou"}},
		{alice, lore.ProfileEntry{Key: "location", Value: "Tegucigalpa"}}, // replaces Ouagadougou: history
		{alice, lore.ProfileEntry{Key: "interest", Value: "bouldering", Evidence: []string{"ep1", evidence}}},
		{alice, lore.ProfileEntry{Key: "interest", Value: "  Bouldering ", Evidence: []string{evidence}}}, // the same value: merges
		{alice, lore.ProfileEntry{Key: "interest", Value: "origami"}},
		{alice, lore.ProfileEntry{Key: "allergy", Value: long}},
		{bob, lore.ProfileEntry{Key: "interest", Value: "bouldering"}},
	} {
		if _, err := s.PutProfileEntry(ctx, w.sc, w.e); err != nil {
			t.Fatalf("PutProfileEntry(%s %s): %v", w.sc.UserID, w.e.Value, err)
		}
	}
	got, err := s.ProfileEntries(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	var vals []string
	for _, e := range got {
		vals = append(vals, e.Key+"="+e.Value)
	}
	want := []string{"allergy=" + strings.TrimSpace(long), "interest=Bouldering", "interest=origami", "location=Tegucigalpa"}
	if strings.Join(vals, "|") != strings.Join(want, "|") {
		t.Errorf("entries=%q, want %q", vals, want)
	}
	if ev := got[1].Evidence; strings.Join(ev, " ") != "ep1 "+evidence {
		t.Errorf("interest evidence=%q, want ep1 and the query's hash once", ev)
	}
	hist, err := s.ProfileHistory(ctx, alice, "location")
	if err != nil || len(hist) != 1 || hist[0].Value != "Ouagadougou" {
		t.Errorf("history=%+v, %v; want Ouagadougou", hist, err)
	}
	cohort, err := s.TenantProfileEntries(ctx, "t1")
	if err != nil || len(cohort["bob"]) != 1 || cohort["bob"][0].Value != "bouldering" {
		t.Errorf("TenantProfileEntries[bob]=%+v, %v; want bouldering", cohort["bob"], err)
	}
	// The store holds sealed values and tokens: alice's and bob's tokens of
	// "bouldering" differ.
	inner, err := raw.ProfileEntries(ctx, alice)
	if err != nil {
		t.Fatal(err)
	}
	innerBob, err := raw.ProfileEntries(ctx, bob)
	if err != nil || len(innerBob) != 1 {
		t.Fatalf("bob's stored entries=%+v, %v", innerBob, err)
	}
	for _, e := range inner {
		if !strings.HasPrefix(e.Value, "lore:enc:") {
			t.Errorf("stored value %q of %s is not sealed", e.Value, e.Key)
		}
	}
	db, err := sql.Open("sqlite", filepath.Join(dir, "lore.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tokens []string
	rows, err := db.QueryContext(ctx, `SELECT value_norm FROM profile_entries WHERE tenant_id = 't1' AND key = 'interest' ORDER BY user_id, value_norm`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var tok string
		if err := rows.Scan(&tok); err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok)
	}
	rows.Close()
	if len(tokens) != 3 || !strings.HasPrefix(tokens[0], "k:") || slices.Contains(tokens[:2], tokens[2]) {
		t.Errorf("stored interest tokens=%q, want alice's two and bob's one, all different keyed tokens", tokens)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, word := range []string{"Ouagadougou", "Tegucigalpa", "ouldering", "origami", "Marrakech", "marrakech", strings.TrimPrefix(evidence, lore.QueryEvidencePrefix)} {
			if bytes.Contains(b, []byte(word)) {
				t.Errorf("%s holds the profile value %q in the clear", name, word)
			}
		}
	}
}
