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
