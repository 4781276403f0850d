package export

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// writeProfile writes the user's profile when st holds profiles and scope
// names a user: the replaced entries, oldest first, then the current ones.
func writeProfile(ctx context.Context, enc *json.Encoder, st lore.GraphStore, scope lore.Scope, n *Counts) error {
	ps, ok := st.(lore.ProfileStore)
	if !ok || scope.UserID == "" {
		return nil
	}
	hist, err := ps.ProfileHistory(ctx, scope, "")
	if err != nil {
		return fmt.Errorf("export: profile history: %w", err)
	}
	cur, err := ps.ProfileEntries(ctx, scope)
	if err != nil {
		return fmt.Errorf("export: profile: %w", err)
	}
	for _, e := range append(hist, cur...) {
		if err := enc.Encode(Record{Type: TypeProfile, Profile: &e}); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
		n.Profile++
	}
	return nil
}

// importProfile writes a dump's profile entries through the store's
// precedence rules: replaced entries first, by when they were written,
// then the current ones, so that the current ones replace them again and
// history comes back. Evidence naming an exported episode follows its id.
func importProfile(ctx context.Context, st lore.GraphStore, d *Dump, remap func(lore.Scope) lore.Scope, epIDs map[string]string, n *Counts) error {
	if len(d.Profile) == 0 {
		return nil
	}
	ps, ok := st.(lore.ProfileStore)
	if !ok {
		return lore.Errorf(lore.EINVALID, "the export holds a profile and this store keeps none")
	}
	scope := remap(d.Scope)
	entries := append([]lore.ProfileEntry(nil), d.Profile...)
	// Replaced entries first (by write time), then current ones in file order.
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if (a.ReplacedAt != nil) != (b.ReplacedAt != nil) {
			return a.ReplacedAt != nil
		}
		return a.ReplacedAt != nil && a.UpdatedAt.Before(b.UpdatedAt)
	})
	for _, e := range entries {
		in := e
		in.ReplacedAt = nil
		in.Evidence = make([]string, 0, len(e.Evidence))
		for _, id := range e.Evidence {
			if to, ok := epIDs[id]; ok {
				id = to
			}
			in.Evidence = append(in.Evidence, id)
		}
		if _, err := ps.PutProfileEntry(ctx, scope, in); err != nil {
			return fmt.Errorf("export: import profile %q: %w", e.Key, err)
		}
		n.Profile++
	}
	return nil
}

// writeQueryLog writes the user's logged searches that have not expired at
// now, oldest first, when st keeps query logs and scope names a user.
func writeQueryLog(ctx context.Context, enc *json.Encoder, st lore.GraphStore, scope lore.Scope, now time.Time, n *Counts) error {
	ql, ok := st.(lore.QueryLogStore)
	if !ok || scope.UserID == "" {
		return nil
	}
	entries, err := ql.QueryLog(ctx, scope, lore.QueryLogFilter{Now: now})
	if err != nil {
		return fmt.Errorf("export: query log: %w", err)
	}
	for _, e := range entries {
		if err := enc.Encode(Record{Type: TypeQuery, Query: &e}); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
		n.Queries++
	}
	return nil
}

// importQueryLog writes a dump's logged searches into the user's log under
// new ids, with their times, so they expire when they would have.
func importQueryLog(ctx context.Context, st lore.GraphStore, d *Dump, remap func(lore.Scope) lore.Scope, n *Counts) error {
	if len(d.Queries) == 0 {
		return nil
	}
	ql, ok := st.(lore.QueryLogStore)
	if !ok {
		return lore.Errorf(lore.EINVALID, "the export holds a query log and this store keeps none")
	}
	scope := remap(d.Scope)
	for _, e := range d.Queries {
		e.ID = uuid.NewString()
		if err := ql.AppendQueryLog(ctx, scope, e); err != nil {
			return fmt.Errorf("export: import query log: %w", err)
		}
		n.Queries++
	}
	return nil
}
