package crypt

import (
	"context"
	"strings"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
)

// Index wraps a lore.Index with a blind index: each document's text is
// analyzed as the index would (index/terms), and every term is replaced by
// its keyed hash under the tenant's blind index key before the index sees
// it; queries are turned the same way. BM25 ranks the hashes as it ranked
// the words, and the index's storage holds no word of the text. Vectors
// pass unchanged.
type Index struct {
	lore.Index
	Keys *Keyring
	// QueryWords, when set, selects a query's words as the wrapped index
	// would (the embedded index drops stopwords: sqlite.QueryWords), before
	// they are hashed and it can no longer recognize them.
	QueryWords func(text string) []string
}

var _ lore.Index = (*Index)(nil)

// NewIndex wraps inner.
func NewIndex(inner lore.Index, keys *Keyring) *Index { return &Index{Index: inner, Keys: keys} }

// blind returns text's terms as blind tokens, space-separated.
func (x *Index) blind(ctx context.Context, tenant, text string) (string, error) {
	var out []string
	for _, t := range terms.Analyze(text) {
		b, err := x.Keys.Blind(ctx, tenant, t)
		if err != nil {
			return "", err
		}
		out = append(out, b)
	}
	return strings.Join(out, " "), nil
}

// Upsert indexes the documents' blind tokens instead of their text.
func (x *Index) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	out := make([]lore.IndexDoc, len(docs))
	for i, d := range docs {
		var err error
		if d.Text, err = x.blind(ctx, d.Scope.TenantID, d.Text); err != nil {
			return err
		}
		out[i] = d
	}
	return x.Index.Upsert(ctx, out)
}

// SearchText searches for the query's blind tokens.
func (x *Index) SearchText(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	text := q.Text
	if x.QueryWords != nil {
		text = strings.Join(x.QueryWords(text), " ")
	}
	var err error
	if q.Text, err = x.blind(ctx, q.Scope.TenantID, text); err != nil {
		return nil, err
	}
	if q.Text == "" {
		return []lore.IndexHit{}, nil
	}
	return x.Index.SearchText(ctx, q)
}
