package sqlite

import (
	"fmt"

	"github.com/lore-memory/lore"
)

// testScope is the scope of internal tests.
func testScope() lore.Scope { return lore.Scope{TenantID: "t", UserID: "u"} }

// docsOf returns episode documents with these texts.
func docsOf(sc lore.Scope, texts ...string) []lore.IndexDoc {
	out := make([]lore.IndexDoc, len(texts))
	for i, t := range texts {
		out[i] = lore.IndexDoc{ID: fmt.Sprintf("doc-%d", i), Kind: lore.KindEpisode, Scope: sc, Text: t}
	}
	return out
}

// queryOf returns a text query in sc.
func queryOf(sc lore.Scope, text string) lore.IndexQuery {
	return lore.IndexQuery{Scope: sc, Text: text, Limit: 10}
}
