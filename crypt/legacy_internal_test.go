package crypt

import (
	"context"
	"crypto/rand"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
)

// TestLegacyNamesStillResolve: a tenant encrypted before names were sealed
// (its data key lacks wrapped.Names) holds entity names and literal
// objects in the clear. Through the layer, a name stated again resolves to
// the old entity (which gains the sealed name as an alias), a lookup by
// name finds it, and a literal fact stated again merges into the old one
// instead of gaining a sealed twin; new names are sealed.
func TestLegacyNamesStillResolve(t *testing.T) {
	ctx := context.Background()
	raw, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	master, dek := make([]byte, KeySize), make([]byte, KeySize)
	rand.Read(master)
	rand.Read(dek)
	w, err := wrapKey(master, dek, "acme", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.SetMeta(ctx, dekPrefix+"acme", w); err != nil {
		t.Fatal(err)
	}
	sc := lore.Scope{TenantID: "acme", UserID: "maya"}
	emma, err := raw.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Emma", Type: "person"})
	if err != nil {
		t.Fatal(err)
	}
	job, _, err := raw.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Subject: "Emma", Predicate: "works_as", Object: "Pastry Chef", Text: "Emma is a pastry chef"}, "test")
	if err != nil {
		t.Fatal(err)
	}

	kr, err := NewKeyring(raw, master)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(raw, kr)
	got, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "EMMA", Type: "person"})
	if err != nil || got.ID != emma.ID || got.Mentions != 2 || got.Name != "Emma" {
		t.Fatalf("MergeEntity(EMMA)=%+v, %v; want the old entity %s with 2 mentions", got, err, emma.ID)
	}
	for _, names := range [][]string{{"emma"}, {"Emma"}} {
		found, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc, Names: names})
		if err != nil || len(found) != 1 || found[0].ID != emma.ID {
			t.Errorf("FindEntities(%q)=%v, %v; want the old entity", names, found, err)
		}
	}
	// The sealed name is now an alias: the raw store finds it sealed.
	sealed, err := kr.SealName(ctx, "acme", ownPurpose(purposeName, sc), "emma")
	if err != nil {
		t.Fatal(err)
	}
	if found, err := raw.FindEntities(ctx, lore.EntityFilter{Scope: sc, Names: []string{sealed}}); err != nil || len(found) != 1 || found[0].ID != emma.ID {
		t.Errorf("raw FindEntities(sealed emma)=%v, %v; want the old entity by its sealed alias", found, err)
	}
	f, ev, err := st.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Predicate: "works_as", Object: "pastry chef", Text: "Emma works as a pastry chef"}, "test")
	if err != nil || f.ID != job.ID || ev != lore.EventMerge || f.Count != 2 {
		t.Fatalf("MergeFact(restated literal)=%+v, %s, %v; want a merge into %s", f, ev, err, job.ID)
	}
	rome, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Rome", Type: "place"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := raw.FindEntities(ctx, lore.EntityFilter{Scope: sc, IDs: []string{rome.ID}}); err != nil || len(r) != 1 || !IsSealed(r[0].Name) {
		t.Errorf("a new entity of a legacy tenant: %v, %v; want its name sealed", r, err)
	}
}

// TestResealNames: a tenant from before sealed names, resealed, holds no
// name in the clear, reads as before, still merges what is stated again,
// and is marked so lookups stop trying the clear form; a second run seals
// nothing.
func TestResealNames(t *testing.T) {
	ctx := context.Background()
	raw, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	master, dek := make([]byte, KeySize), make([]byte, KeySize)
	rand.Read(master)
	rand.Read(dek)
	w, err := wrapKey(master, dek, "acme", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.SetMeta(ctx, dekPrefix+"acme", w); err != nil {
		t.Fatal(err)
	}
	sc := lore.Scope{TenantID: "acme", UserID: "maya"}
	bot := lore.Scope{TenantID: "acme", AgentID: "bot"}
	if err := raw.AddEpisodes(ctx, []*lore.Episode{
		{Scope: sc, Role: "user", Speaker: "Maya", Content: "x"}, {Scope: bot, Role: "user", Speaker: "Operator", Content: "y"}}); err != nil {
		t.Fatal(err)
	}
	emma, _ := raw.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Emma", Type: "person", Aliases: []string{"Em"}})
	rome, _ := raw.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "Rome", Type: "place"})
	botEnt, _ := raw.MergeEntity(ctx, &lore.Entity{Scope: bot, Name: "Ticket Queue", Type: "thing"})
	chef, _, err := raw.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Subject: "Emma", Predicate: "works_as", Object: "Pastry Chef", Text: "t"}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := raw.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Subject: "Emma", Predicate: "lives_in", ObjectID: rome.ID, Text: "t"}, "test"); err != nil {
		t.Fatal(err)
	}
	kr, _ := NewKeyring(raw, master)
	st := NewStore(raw, kr)
	// A name stated through the layer before the reseal: the old entity
	// gains its sealed alias.
	if _, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: "emma", Type: "person"}); err != nil {
		t.Fatal(err)
	}

	n, err := st.ResealNames(ctx, "acme")
	// maya: 2 entity names, 1 plain alias, 2 facts, 1 speaker; bot: 1 name, 1 speaker.
	if err != nil || n != 8 {
		t.Fatalf("ResealNames=%d, %v; want 8 values sealed", n, err)
	}
	if n, err := st.ResealNames(ctx, "acme"); err != nil || n != 0 {
		t.Errorf("ResealNames again=%d, %v; want 0", n, err)
	}
	for _, g := range []lore.Scope{sc, bot} {
		ents, err := raw.FindEntities(ctx, lore.EntityFilter{Scope: g})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if !IsSealed(e.Name) || !IsSealed(e.NormalizedName) {
				t.Errorf("entity %q / %q is still in the clear", e.Name, e.NormalizedName)
			}
			for _, a := range e.Aliases {
				if !IsSealed(a) {
					t.Errorf("alias %q is still in the clear", a)
				}
			}
		}
		sp, err := raw.Speakers(ctx, g)
		if err != nil || len(sp) != 1 || !IsSealed(sp[0]) {
			t.Errorf("stored speakers=%q, %v; want one, sealed", sp, err)
		}
	}
	facts, err := raw.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil || len(facts) != 2 {
		t.Fatalf("raw FindFacts=%d, %v", len(facts), err)
	}
	for _, f := range facts {
		if !IsSealed(f.Subject) || f.Object != "" && !IsSealed(f.Object) {
			t.Errorf("fact %s states %q %q in the clear", f.ID, f.Subject, f.Object)
		}
	}
	// Read through a fresh keyring (another process): the key is marked,
	// and everything reads as written.
	kr2, _ := NewKeyring(raw, master)
	st2 := NewStore(raw, kr2)
	if legacy, err := kr2.legacyNames(ctx, "acme"); err != nil || legacy {
		t.Errorf("legacyNames after the reseal=%v, %v; want false", legacy, err)
	}
	for _, c := range []struct {
		scope lore.Scope
		name  string
		id    string
		want  string
	}{{sc, "EMMA", emma.ID, "Emma"}, {sc, "em", emma.ID, "Emma"}, {sc, "rome", rome.ID, "Rome"}, {bot, "ticket queue", botEnt.ID, "Ticket Queue"}} {
		got, err := st2.FindEntities(ctx, lore.EntityFilter{Scope: c.scope, Names: []string{c.name}})
		if err != nil || len(got) != 1 || got[0].ID != c.id || got[0].Name != c.want {
			t.Errorf("FindEntities(%q)=%+v, %v; want %s named %q", c.name, got, err, c.id, c.want)
		}
	}
	if sp, err := st2.Speakers(ctx, sc); err != nil || len(sp) != 1 || sp[0] != "Maya" {
		t.Errorf("Speakers=%q, %v; want [Maya]", sp, err)
	}
	f, ev, err := st2.MergeFact(ctx, &lore.Fact{Scope: sc, SubjectID: emma.ID, Predicate: "works_as", Object: "pastry chef", Text: "again"}, "test")
	if err != nil || f.ID != chef.ID || ev != lore.EventMerge || f.Object != "Pastry Chef" || f.Subject != "Emma" {
		t.Errorf("MergeFact(restated)=%+v, %s, %v; want a merge into %s, read as Emma / Pastry Chef", f, ev, err, chef.ID)
	}
}
