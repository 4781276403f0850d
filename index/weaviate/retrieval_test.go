package weaviate

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/graph/sqlite/sqlitetest"
	"github.com/lore-memory/lore/storetest"
)

// openNeo4j opens the Neo4j test server named by LORE_TEST_NEO4J_URL and
// closes it with the test. Without the variable it skips, or fails under
// CI=true.
func openNeo4j(tb testing.TB) *neo4j.Store {
	tb.Helper()
	url := storetest.ServerURL(tb, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := neo4j.Open(ctx, neo4j.Config{
		URL:      url,
		Username: os.Getenv("LORE_TEST_NEO4J_USER"),
		Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD"),
	})
	if err != nil {
		tb.Fatalf("neo4j.Open(%s): %v", url, err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Errorf("neo4j Close: %v", err)
		}
	})
	return st
}

// openNeo4jWeaviate is the production combination: Neo4j holds the graph,
// Weaviate the index.
func openNeo4jWeaviate(tb testing.TB) (lore.Store, lore.Index) {
	tb.Helper()
	idx := mustOpen(tb) // checks LORE_TEST_WEAVIATE_URL first: both servers are needed
	return openNeo4j(tb), idx
}

// openEmbedded is the embedded combination: one SQLite file holds both.
func openEmbedded(tb testing.TB) (lore.Store, lore.Index) {
	tb.Helper()
	st, idx := sqlitetest.Open(tb)
	return st, idx
}

// TestRetrieval runs the retrieval conformance suite on Neo4j + Weaviate.
func TestRetrieval(t *testing.T) {
	storetest.RunRetrieval(t, "neo4j+weaviate", openNeo4jWeaviate)
}

// TestRetrievalMatchesEmbedded compares the top memories of the embedded
// backend and Neo4j + Weaviate on the retrieval fixture. The graph signal
// and dense vectors are equal on both; BM25 differs in its IDF (the
// embedded index weighs terms over the user's or agent's documents,
// Weaviate over a collection's tenant), which can reorder close results. The top memories stood for the same source turn
// on 13 of 15 queries with BM25 the heaviest signal (dense 0.3) and on 15 of
// 15 with the issue-5 defaults, so at least 80% must agree.
func TestRetrievalMatchesEmbedded(t *testing.T) {
	storetest.CompareRetrieval(t,
		storetest.RetrievalBackend{Name: "sqlite", Open: openEmbedded},
		storetest.RetrievalBackend{Name: "neo4j+weaviate", Open: openNeo4jWeaviate},
		0.8)
}
