package export_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/export"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
)

// TestExportImportProfile exports a user's profile with its history and
// imports it into another store: the same entries and the same history.
func TestExportImportProfile(t *testing.T) {
	ctx := context.Background()
	src, _ := sqlitetest.Open(t)
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	at := func(h int) time.Time { return now.Add(time.Duration(h) * time.Hour) }
	for _, e := range []lore.ProfileEntry{
		{Key: "occupation", Value: "nurse", UpdatedAt: at(1)},
		{Key: "occupation", Value: "midwife", UpdatedAt: at(2)},
		{Key: "interest", Value: "climbing", Source: lore.ProfileInferred, Confidence: 0.7, Evidence: []string{lore.QueryEvidence("best climbing gyms")}, UpdatedAt: at(3)},
		{Key: "allergy", Value: "peanuts", UpdatedAt: at(4)},
	} {
		if _, err := src.PutProfileEntry(ctx, alice, e); err != nil {
			t.Fatalf("PutProfileEntry: %v", err)
		}
	}
	var file bytes.Buffer
	n, err := export.Write(ctx, &file, src, alice, now)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	if n.Profile != 4 {
		t.Errorf("exported %d profile records, want 4 (3 current, 1 replaced)", n.Profile)
	}
	dump, err := export.Read(&file)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	dst, _ := sqlitetest.Open(t)
	if _, err := export.Import(ctx, dst, dump, nil, now); err != nil {
		t.Fatalf("Import: %v", err)
	}
	render := func(es []lore.ProfileEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s=%s/%s@%s %v", e.Key, e.Value, e.Source, e.UpdatedAt.Format(time.RFC3339), e.Evidence))
		}
		return out
	}
	for _, read := range []struct {
		name string
		get  func(lore.ProfileStore) ([]lore.ProfileEntry, error)
	}{
		{"entries", func(ps lore.ProfileStore) ([]lore.ProfileEntry, error) { return ps.ProfileEntries(ctx, alice) }},
		{"history", func(ps lore.ProfileStore) ([]lore.ProfileEntry, error) { return ps.ProfileHistory(ctx, alice, "") }},
	} {
		want, err := read.get(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := read.get(dst)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(render(got), render(want)) || len(want) == 0 {
			t.Errorf("%s after import=%v, want %v", read.name, render(got), render(want))
		}
	}
}

// TestExportImportQueryLog: the user's logged searches go into the export
// (an expired one does not) and come back with their times and hashes.
func TestExportImportQueryLog(t *testing.T) {
	ctx := context.Background()
	src, _ := sqlitetest.Open(t)
	alice := lore.Scope{TenantID: "acme", UserID: "alice"}
	for _, e := range []lore.QueryLogEntry{
		{ID: "q1", Query: "beginner bouldering gyms", CreatedAt: now.Add(-time.Hour), ExpiresAt: now.Add(24 * time.Hour)},
		{ID: "q2", Query: "an expired search", CreatedAt: now.Add(-48 * time.Hour), ExpiresAt: now.Add(-24 * time.Hour)},
	} {
		if err := src.AppendQueryLog(ctx, alice, e); err != nil {
			t.Fatal(err)
		}
	}
	var file bytes.Buffer
	n, err := export.Write(ctx, &file, src, alice, now)
	if err != nil || n.Queries != 1 {
		t.Fatalf("Write: %d queries, %v; want 1 (the expired one left out)", n.Queries, err)
	}
	if !bytes.Contains(file.Bytes(), []byte(`"type":"query"`)) {
		t.Errorf("export holds no query record:\n%s", file.String())
	}
	dump, err := export.Read(&file)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	dst, _ := sqlitetest.Open(t)
	if _, err := export.Import(ctx, dst, dump, nil, now); err != nil {
		t.Fatalf("Import: %v", err)
	}
	got, err := dst.QueryLog(ctx, alice, lore.QueryLogFilter{Now: now})
	if err != nil || len(got) != 1 || got[0].Query != "beginner bouldering gyms" || got[0].Hash != lore.QueryEvidence("beginner bouldering gyms") ||
		!got[0].ExpiresAt.Equal(now.Add(24*time.Hour)) {
		t.Errorf("imported log=%+v, %v; want the live search with its hash and expiry", got, err)
	}
}
