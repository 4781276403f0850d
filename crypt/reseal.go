package crypt

import (
	"context"

	"github.com/lore-memory/lore"
)

// maxScopes bounds how many users and agents of a tenant ResealNames walks.
const maxScopes = 1 << 30

// ResealNames seals in place the names a tenant's graphs hold in the
// clear: entity names and aliases, fact subjects and objects, and speakers
// written before encryption sealed them (a tenant whose data key lacks the
// names flag). Sealed values are left alone, so it can run again after an
// interruption and then changes nothing. When every graph is done it marks
// the tenant's key, and lookups stop trying names in the clear. It walks
// the users and agents that hold episodes or facts (lore.Directory) and
// returns how many stored values it sealed. Run it with the servers
// stopped (or restart them after): a running server keeps trying the clear
// form until then, which costs lookups but loses nothing.
func (s *Store) ResealNames(ctx context.Context, tenant string) (int, error) {
	dir, err := port[lore.Directory](s)
	if err != nil {
		return 0, err
	}
	rw, err := port[lore.NameRewriter](s)
	if err != nil {
		return 0, err
	}
	// The data key first: a new one is stored, and fn runs within the
	// store's write transaction, where it must not write.
	if _, err := s.Keys.legacyNames(ctx, tenant); err != nil {
		return 0, err
	}
	scopes, err := dir.Scopes(ctx, tenant, maxScopes)
	if err != nil {
		return 0, err
	}
	seen := map[lore.Scope]bool{}
	total := 0
	for _, sum := range scopes {
		// One graph per user (across their agents and runs), or per
		// agent for an agent's own memories: the reach of a read, and of
		// a name's deterministic seal (ownPurpose).
		g := lore.Scope{TenantID: tenant, UserID: sum.Scope.UserID}
		if g.UserID == "" {
			g.AgentID = sum.Scope.AgentID
		}
		if seen[g] || g.Validate() != nil {
			continue
		}
		seen[g] = true
		n, err := rw.RewriteNames(ctx, g, s.resealName(ctx, g))
		total += n
		if err != nil {
			return total, err
		}
	}
	return total, s.Keys.markNamesSealed(ctx, tenant)
}

// resealName returns the function that seals one name of graph g as the
// layer seals it on the way in, leaving sealed ones alone.
func (s *Store) resealName(ctx context.Context, g lore.Scope) func(lore.NameKind, string) (string, error) {
	return func(kind lore.NameKind, v string) (string, error) {
		if v == "" || IsSealed(v) {
			return v, nil
		}
		switch kind {
		case lore.NameEntity, lore.NameAlias:
			return s.sealName(ctx, g, v)
		case lore.NameSubject, lore.NameObject:
			return s.Keys.Seal(ctx, g.TenantID, v)
		case lore.NameLiteral:
			return s.sealObject(ctx, g, "", v)
		case lore.NameSpeaker:
			return s.sealSpeaker(ctx, g, v)
		}
		return v, nil
	}
}
