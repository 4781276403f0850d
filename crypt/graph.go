package crypt

import (
	"context"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// The graph's names are sealed too. The stores look entities up and
// deduplicate them by normalized name and alias, facts with a literal
// object by the object's normalized form, and speakers by value, so these
// are sealed deterministically (SealName, SealDeterministic): equal values
// seal alike within one user's graph (or an agent's own, for memories with
// no user) and purpose, the store compares and keys on
// the sealed form, and its uniqueness guarantees hold unchanged; a name's
// spelling travels sealed in the part of it that normalization drops
// (SealName), so names read back as first written. What only shows (a
// fact's subject, an entity object's name as the fact repeats it) is
// sealed with a random nonce.
const (
	purposeName    = "entity-name" // entity names and aliases share one: a name is looked up among both
	purposeObject  = "fact-object"
	purposeSpeaker = "speaker"
)

// ownPurpose binds a purpose to the graph a scope reads: its user's, or
// for an agent-only scope the agent's own. Every read of entities, facts
// and speakers covers one such graph (a user's read spans its agents and
// runs, an agent-only read never a user's), so lookups still meet, and
// equal names of two users seal differently.
func ownPurpose(purpose string, sc lore.Scope) string {
	if sc.UserID != "" {
		return purpose + "/user:" + sc.UserID
	}
	return purpose + "/agent:" + sc.AgentID
}

// sealName seals a name for lookup (SealName). A name that normalizes to
// nothing is passed on as it is, for the store to refuse.
func (s *Store) sealName(ctx context.Context, sc lore.Scope, name string) (string, error) {
	if lore.NormalizeName(name) == "" {
		return name, nil
	}
	return s.Keys.SealName(ctx, sc.TenantID, ownPurpose(purposeName, sc), name)
}

// sealNames seals each name for lookup; nil stays nil.
func (s *Store) sealNames(ctx context.Context, sc lore.Scope, names []string) ([]string, error) {
	if names == nil {
		return nil, nil
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		v, err := s.sealName(ctx, sc, n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// sealObject seals a fact's object: a literal deterministically in its
// normalized form (the store deduplicates on it), an entity's name with a
// random nonce (the store keys on the entity's id).
func (s *Store) sealObject(ctx context.Context, sc lore.Scope, objectID, object string) (string, error) {
	if objectID != "" {
		return s.Keys.Seal(ctx, sc.TenantID, object)
	}
	if lore.NormalizeName(object) == "" {
		return object, nil
	}
	return s.Keys.SealName(ctx, sc.TenantID, ownPurpose(purposeObject, sc), object)
}

// openEntity opens an entity's name and aliases in place.
func (s *Store) openEntity(ctx context.Context, e *lore.Entity) error {
	t := e.Scope.TenantID
	var err error
	if e.Name, err = s.Keys.Open(ctx, t, e.Name); err != nil {
		return err
	}
	if e.NormalizedName, err = s.Keys.Open(ctx, t, e.NormalizedName); err != nil {
		return err
	}
	for i, a := range e.Aliases {
		if e.Aliases[i], err = s.Keys.Open(ctx, t, a); err != nil {
			return err
		}
	}
	return nil
}

// MergeEntity seals the entity's name and aliases for the store; e itself
// is left as the caller gave it.
func (s *Store) MergeEntity(ctx context.Context, e *lore.Entity) (*lore.Entity, error) {
	g := *e
	var err error
	if g.Name, err = s.sealName(ctx, e.Scope, e.Name); err != nil {
		return nil, err
	}
	if g.Aliases, err = s.sealNames(ctx, e.Scope, e.Aliases); err != nil {
		return nil, err
	}
	if err := s.mergeIntoLegacy(ctx, e, &g); err != nil {
		return nil, err
	}
	out, err := s.Store.MergeEntity(ctx, &g)
	if err != nil {
		return nil, err
	}
	return out, s.openEntity(ctx, out)
}

// mergeIntoLegacy points a merge at an entity of a tenant whose key
// predates sealed names (wrapped.Names) when the store holds the entity
// under its name in the clear: g keeps that name, so the store resolves to
// the old entity instead of creating a sealed twin, and gains the sealed
// name as an alias, so later merges and lookups find it sealed.
func (s *Store) mergeIntoLegacy(ctx context.Context, e, g *lore.Entity) error {
	legacy, err := s.Keys.legacyNames(ctx, e.Scope.TenantID)
	if err != nil || !legacy {
		return err
	}
	plain := plainNames(append([]string{e.Name}, e.Aliases...))
	if len(plain) == 0 {
		return nil
	}
	old, err := s.Store.FindEntities(ctx, lore.EntityFilter{Scope: e.Scope.Namespace(), Names: plain, Limit: 1})
	if err != nil || len(old) == 0 || IsSealed(old[0].NormalizedName) {
		return err
	}
	g.Aliases = append([]string{g.Name}, g.Aliases...)
	g.Name = old[0].NormalizedName
	return nil
}

// plainNames returns the non-empty normalized forms of names.
func plainNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n = lore.NormalizeName(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// FindEntities seals the names it looks for and opens what the store
// found, in the order the port promises: mentions descending, then name,
// then id. The store orders ties by the sealed names, so for a page this
// reads on past it (twice its length, more while they tie) until the
// mentions drop below the page's last: every entity that could belong on
// the page by name is then in hand.
func (s *Store) FindEntities(ctx context.Context, f lore.EntityFilter) ([]*lore.Entity, error) {
	plain := plainNames(f.Names)
	var err error
	if f.Names, err = s.sealNames(ctx, f.Scope, f.Names); err != nil {
		return nil, err
	}
	// A tenant from before sealed names may hold them in the clear.
	if legacy, err := s.Keys.legacyNames(ctx, f.Scope.TenantID); err != nil {
		return nil, err
	} else if legacy {
		f.Names = append(f.Names, plain...)
	}
	offset, limit := f.Offset, f.Limit
	if offset < 0 || limit < 0 {
		offset, limit = 0, 0 // the store refuses or reads them as it does
	}
	g := f
	if offset > 0 || limit > 0 {
		g.Offset, g.Limit = 0, 0
	}
	want := offset + limit
	if limit > 0 {
		// Twice the page: the mentions have usually dropped by then, and
		// one statement does.
		g.Limit = 2 * want
	}
	ents, err := s.Store.FindEntities(ctx, g)
	if err != nil {
		return nil, err
	}
	if g.Limit > 0 && len(ents) == g.Limit {
		last := ents[want-1].Mentions
		for ents[len(ents)-1].Mentions >= last {
			g.Offset, g.Limit = len(ents), len(ents) // read as many again
			more, err := s.Store.FindEntities(ctx, g)
			if err != nil {
				return nil, err
			}
			ents = append(ents, more...)
			if len(more) < g.Limit {
				break
			}
		}
	}
	for _, e := range ents {
		if err := s.openEntity(ctx, e); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(ents, func(a, b *lore.Entity) int {
		if a.Mentions != b.Mentions {
			return b.Mentions - a.Mentions
		}
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if offset >= len(ents) {
		return []*lore.Entity{}, nil
	}
	ents = ents[offset:]
	if limit > 0 && len(ents) > limit {
		ents = ents[:limit]
	}
	return ents, nil
}

// sealTriple seals what a fact states: its subject's name with a random
// nonce, its object as sealObject does.
func (s *Store) sealTriple(ctx context.Context, sc lore.Scope, subject *string, objectID string, object *string) error {
	var err error
	if *subject, err = s.Keys.Seal(ctx, sc.TenantID, *subject); err != nil {
		return err
	}
	*object, err = s.sealObject(ctx, sc, objectID, *object)
	return err
}

// Speakers opens the store's distinct speakers and sorts them again (the
// store sorted their sealed forms).
func (s *Store) Speakers(ctx context.Context, scope lore.Scope) ([]string, error) {
	sp, err := s.Store.Speakers(ctx, scope)
	if err != nil {
		return nil, err
	}
	for i, v := range sp {
		if sp[i], err = s.Keys.Open(ctx, scope.TenantID, v); err != nil {
			return nil, err
		}
	}
	slices.Sort(sp)
	// A speaker written before speakers were sealed and again after is two
	// rows of the store.
	return slices.Compact(sp), nil
}

// sealSpeaker seals an episode's speaker deterministically: the stores
// count and list speakers by value.
func (s *Store) sealSpeaker(ctx context.Context, sc lore.Scope, speaker string) (string, error) {
	return s.Keys.SealDeterministic(ctx, sc.TenantID, ownPurpose(purposeSpeaker, sc), speaker)
}

// legacyObject points a merge of a fact with a literal object at a current
// fact of a tenant from before sealed names that states the same literal
// in the clear: g keeps the stored literal, so the store's deduplication
// key matches and the fact merges instead of gaining a sealed twin.
func (s *Store) legacyObject(ctx context.Context, f, g *lore.Fact) error {
	if f.ObjectID != "" || f.SubjectID == "" {
		return nil
	}
	legacy, err := s.Keys.legacyNames(ctx, f.Scope.TenantID)
	if err != nil || !legacy {
		return err
	}
	pred, err := lore.NormalizePredicate(f.Predicate)
	norm := lore.NormalizeName(f.Object)
	if err != nil || norm == "" {
		return nil // the store refuses it
	}
	old, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: f.Scope.Namespace(), SubjectID: f.SubjectID, Predicate: pred})
	if err != nil {
		return err
	}
	for _, o := range old {
		if o.ObjectID == "" && !IsSealed(o.Object) && lore.NormalizeName(o.Object) == norm {
			g.Object = o.Object
			return nil
		}
	}
	return nil
}
