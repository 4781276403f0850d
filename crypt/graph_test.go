package crypt_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
)

// TestSealNameSurvivesNormalization: a sealed name is its own normalized
// form once its display part is dropped, names equal after normalization
// meet there, and each opens to the spelling it was sealed from.
func TestSealNameSurvivesNormalization(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kr, _ := crypt.NewKeyring(st, master(t))
	norm, err := kr.SealName(ctx, "acme", "p", "alice smith")
	if err != nil {
		t.Fatal(err)
	}
	if lore.NormalizeName(norm) != norm {
		t.Fatalf("NormalizeName(%q)=%q, want it unchanged", norm, lore.NormalizeName(norm))
	}
	for _, name := range []string{"Alice Smith", "  ALICE   smith!", "the Alice Smith", "Alice Smith…"} {
		v, err := kr.SealName(ctx, "acme", "p", name)
		if err != nil {
			t.Fatal(err)
		}
		if got := lore.NormalizeName(v); got != norm {
			t.Errorf("NormalizeName(SealName(%q))=%q, want the sealed normal form %q", name, got, norm)
		}
		if got, err := kr.Open(ctx, "acme", v); err != nil || got != name {
			t.Errorf("Open(SealName(%q))=%q, %v; want the spelling back", name, got, err)
		}
		if strings.Contains(v, "lice") || strings.Contains(strings.ToLower(v), "smith") {
			t.Errorf("SealName(%q)=%q shows the name", name, v)
		}
		if _, err := kr.Open(ctx, "other", v); err == nil {
			t.Errorf("a name sealed for acme opened for another tenant")
		}
	}
	other, _ := kr.SealName(ctx, "acme", "q", "alice smith")
	if other == norm {
		t.Errorf("two purposes seal a name alike: %q", other)
	}
	if got, err := kr.Open(ctx, "acme", norm); err != nil || got != "alice smith" {
		t.Errorf("Open(sealed normal form)=%q, %v", got, err)
	}
}

// TestGraphNamesSealed: entity names and aliases, fact subjects and
// objects, speakers and a job's error text are sealed in the SQLite file
// and WAL, yet entities are found by name, facts deduplicate, speakers
// list distinctly, and everything reads back in the clear with its
// spelling.
func TestGraphNamesSealed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, idx, raw := open(t, dir, master(t))
	svc := &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	person, place, speaker := "Zelda"+randomWord(8), "Quokka"+randomWord(8), "Numbat"+randomWord(8)
	for range 2 { // stated twice: the fact and the entities merge
		if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{
			{Role: "user", Name: speaker, Content: "My sister " + person + " lives in " + place + "."}}}); err != nil {
			t.Fatal(err)
		}
	}
	ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc, Names: []string{strings.ToUpper(person)}})
	if err != nil || len(ents) != 1 || ents[0].Name != person || ents[0].NormalizedName != strings.ToLower(person) {
		t.Fatalf("FindEntities(%q)=%+v, %v; want one entity named %q", person, ents, err, person)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil {
		t.Fatal(err)
	}
	var objects []string
	for _, f := range facts {
		objects = append(objects, f.Subject+" "+f.Predicate+" "+f.Object)
		if strings.Contains(f.Object, strings.ToLower(place)) || strings.Contains(f.Subject, "encn") {
			t.Errorf("fact %s reads back as %q %q, want the spelling", f.ID, f.Subject, f.Object)
		}
		if f.Count != 2 {
			t.Errorf("fact %q count=%d, want 2 (merged)", objects[len(objects)-1], f.Count)
		}
	}
	if !slices.ContainsFunc(objects, func(s string) bool { return strings.Contains(s, place) }) ||
		!slices.ContainsFunc(objects, func(s string) bool { return strings.Contains(s, person) }) {
		t.Fatalf("facts %q name neither %s nor %s", objects, person, place)
	}
	if sp, err := st.Speakers(ctx, sc); err != nil || !slices.Equal(sp, []string{speaker}) {
		t.Errorf("Speakers=%q, %v; want [%s]", sp, err, speaker)
	}
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	if err != nil || len(eps) != 2 || eps[0].Speaker != speaker {
		t.Fatalf("FindEpisodes=%v, %v; want 2 episodes by %s", eps, err, speaker)
	}
	// A job whose error quotes the user.
	job := &lore.Job{Kind: "extract", Scope: sc, Status: lore.JobQueued, MaxAttempts: 1}
	if err := st.EnqueueJob(ctx, job); err != nil {
		t.Fatal(err)
	}
	job.Status, job.Error = lore.JobFailed, "entity name \""+person+"\" is empty once normalized"
	if err := st.SaveJob(ctx, job); err != nil {
		t.Fatal(err)
	}
	if got, err := st.GetJob(ctx, sc.TenantID, job.ID); err != nil || got.Error != job.Error {
		t.Errorf("GetJob error=%q, %v; want it in the clear", got.Error, err)
	}
	if got, err := raw.GetJob(ctx, sc.TenantID, job.ID); err != nil || !crypt.IsSealed(got.Error) {
		t.Errorf("the store's job error=%q, %v; want it sealed", got.Error, err)
	}
	// The store itself holds sealed names only.
	rawEnts, err := raw.FindEntities(ctx, lore.EntityFilter{Scope: sc})
	if err != nil || len(rawEnts) < 3 {
		t.Fatalf("raw FindEntities=%d, %v; want the user, the sister and the place", len(rawEnts), err)
	}
	for _, e := range rawEnts {
		if !crypt.IsSealed(e.Name) || !crypt.IsSealed(e.NormalizedName) {
			t.Errorf("stored entity name %q / %q is not sealed", e.Name, e.NormalizedName)
		}
		for _, a := range e.Aliases {
			if !crypt.IsSealed(a) {
				t.Errorf("stored alias %q is not sealed", a)
			}
		}
	}
	// The same name under another user seals differently; under an agent
	// of the same user, alike (a user's reads span its agents).
	var keys []string
	for _, o := range []lore.Scope{sc, {TenantID: "acme", UserID: "bob"}, {TenantID: "acme", UserID: "alice", AgentID: "helper"}} {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: o, Name: "Rosalind", Type: "person"})
		if err != nil {
			t.Fatal(err)
		}
		r, err := raw.FindEntities(ctx, lore.EntityFilter{Scope: o, IDs: []string{e.ID}})
		if err != nil || len(r) != 1 {
			t.Fatalf("raw FindEntities=%v, %v", r, err)
		}
		keys = append(keys, r[0].NormalizedName)
	}
	if keys[0] == keys[1] || keys[0] != keys[2] {
		t.Errorf("sealed keys of one name for alice, bob, alice's agent: %q; want alice's twice and bob's apart", keys)
	}
	if err := raw.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		for _, secret := range []string{person, place, speaker} {
			for _, form := range []string{secret, strings.ToLower(secret)} {
				if bytes.Contains(b, []byte(form)) {
					t.Errorf("%s holds %q in the clear", name, form)
				}
			}
		}
	}
}

// TestFindEntitiesPagesAsPlain: pages of entities through the layer list
// the same names in the same order as the plain store's pages (mentions
// descending, then name), though the store orders ties by sealed name:
// many ties span several pages and the reads past each page.
func TestFindEntitiesPagesAsPlain(t *testing.T) {
	ctx := context.Background()
	plain, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	enc, _, _ := open(t, t.TempDir(), master(t))
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	for i := range 60 {
		for _, st := range []lore.Store{plain, enc} {
			if _, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: fmt.Sprintf("Name %c%d", 'A'+i%26, i), Type: "person", Mentions: 1 + i%3/2*(i%5)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	names := func(es []*lore.Entity) []string {
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s/%d", e.Name, e.Mentions))
		}
		return out
	}
	for _, limit := range []int{1, 3, 7, 25, 0} {
		for offset := 0; offset < 62; offset += max(limit, 20) {
			f := lore.EntityFilter{Scope: sc, Limit: limit, Offset: offset}
			want, err := plain.FindEntities(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := enc.FindEntities(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(got), names(want)) {
				t.Errorf("limit %d offset %d: %q, want %q", limit, offset, names(got), names(want))
			}
		}
	}
}

// TestEncryptionTurnedOnLater: a store that ran without encryption holds
// its names in the clear. Turned on, the layer still resolves them (a name
// stated again is no new entity), lore keys reseal seals them in place,
// and retrieval answers as before.
func TestEncryptionTurnedOnLater(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	plain, err := sqlite.Open(ctx, filepath.Join(dir, "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	sc := lore.Scope{TenantID: "acme", UserID: "maya"}
	svc := &ingest.Service{Store: plain, Index: plain.Index(), Extractor: rules.New(), Config: ingest.DefaultConfig()}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{
		{Role: "user", Name: "Maya", Content: "My sister Emma lives in Rome."}}}); err != nil {
		t.Fatal(err)
	}
	before, err := plain.FindEntities(ctx, lore.EntityFilter{Scope: sc})
	if err != nil {
		t.Fatal(err)
	}
	plain.Index().Close()
	plain.Close()

	st, idx, raw := open(t, dir, master(t))
	svc = &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{
		{Role: "user", Name: "Maya", Content: "My sister Emma lives in Rome."}}}); err != nil {
		t.Fatal(err)
	}
	after, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc})
	if err != nil || len(after) != len(before) {
		t.Fatalf("entities after the same message under encryption: %d, %v; want the %d there were", len(after), err, len(before))
	}
	n, err := st.ResealNames(ctx, sc.TenantID)
	if err != nil || n == 0 {
		t.Fatalf("ResealNames=%d, %v; want names sealed", n, err)
	}
	rawEnts, err := raw.FindEntities(ctx, lore.EntityFilter{Scope: sc})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rawEnts {
		if !crypt.IsSealed(e.Name) {
			t.Errorf("entity %q still in the clear after the reseal", e.Name)
		}
	}
	for _, name := range []string{"Emma", "rome"} {
		got, err := st.FindEntities(ctx, lore.EntityFilter{Scope: sc, Names: []string{name}})
		if err != nil || len(got) != 1 {
			t.Errorf("FindEntities(%q) after the reseal=%v, %v; want one", name, got, err)
		}
	}
	if sp, err := st.Speakers(ctx, sc); err != nil || !slices.Equal(sp, []string{"Maya"}) {
		t.Errorf("Speakers=%q, %v; want [Maya]", sp, err)
	}
}
