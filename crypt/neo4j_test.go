package crypt_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/storetest"
)

// TestNeo4jStoreConformance runs the store suite on Neo4j through the
// encryption layer. It needs LORE_TEST_NEO4J_URL (scripts/neo4j/start.sh).
func TestNeo4jStoreConformance(t *testing.T) {
	url := storetest.ServerURL(t, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	key := master(t)
	storetest.RunStore(t, "neo4j+crypt", func(tb testing.TB) lore.Store {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		st, err := neo4j.Open(ctx, neo4j.Config{URL: url, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() { st.Close() })
		kr, err := crypt.NewKeyring(st, key)
		if err != nil {
			tb.Fatal(err)
		}
		return crypt.NewStore(st, kr)
	})
}

// TestNeo4jProfileConformance runs the profile, feedback and query log
// suites on Neo4j through the encryption layer: sealed values with their
// dedup tokens, keyed and sealed query hashes. It needs LORE_TEST_NEO4J_URL
// (scripts/neo4j/start.sh).
func TestNeo4jProfileConformance(t *testing.T) {
	url := storetest.ServerURL(t, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	key := master(t)
	open := func(tb testing.TB) *crypt.Store {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		st, err := neo4j.Open(ctx, neo4j.Config{URL: url, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
		if err != nil {
			tb.Fatalf("Open: %v", err)
		}
		tb.Cleanup(func() { st.Close() })
		kr, err := crypt.NewKeyring(st, key)
		if err != nil {
			tb.Fatal(err)
		}
		return crypt.NewStore(st, kr)
	}
	storetest.RunProfile(t, "neo4j+crypt", func(tb testing.TB) storetest.ProfileBackend { return open(tb) })
	storetest.RunFeedback(t, "neo4j+crypt", func(tb testing.TB) storetest.FeedbackBackend { return open(tb) })
	storetest.RunQueryLog(t, "neo4j+crypt", func(tb testing.TB) storetest.QueryLogBackend { return open(tb) })
}
