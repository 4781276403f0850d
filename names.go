package lore

import "context"

// NameKind says which stored name a NameRewriter hands over.
type NameKind string

// The names a graph stores.
const (
	NameEntity  NameKind = "entity"  // an entity's name as written
	NameAlias   NameKind = "alias"   // an entity's alias (normalized)
	NameSubject NameKind = "subject" // a fact's subject, kept for display
	NameObject  NameKind = "object"  // the name of a fact's object entity, kept for display
	NameLiteral NameKind = "literal" // a fact's literal object
	NameSpeaker NameKind = "speaker" // an episode's speaker
)

// NameRewriter rewrites in place the names a graph stores, so that
// `lore keys reseal` can seal names written before encryption sealed them.
// Implementations: graph/sqlite and graph/neo4j;
// storetest.RunNameRewriter covers both.
type NameRewriter interface {
	// RewriteNames hands every name stored in the graph a scope reads (a
	// user's, across their agents and runs, or an agent-only scope's own)
	// to fn and stores what fn returns in its place; fn returning its
	// input leaves the value alone. An entity's normalized name becomes
	// NormalizeName of its new name, and an alias equal to it is dropped;
	// a literal fact's deduplication key follows its new object. A new
	// name another entity of the namespace already holds is ECONFLICT. It
	// returns how many stored values changed. fn runs within the store's
	// write transaction and must not write to the store.
	RewriteNames(ctx context.Context, scope Scope, fn func(kind NameKind, value string) (string, error)) (int, error)
}
