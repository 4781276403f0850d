package neo4j_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/storetest"
)

// serverURL returns the test server's address from LORE_TEST_NEO4J_URL. It
// skips the test when unset, except under CI=true, where a missing server
// fails the run.
func serverURL(tb testing.TB) string {
	tb.Helper()
	return storetest.ServerURL(tb, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
}

// mustOpen opens a store on the test server and closes it with the test.
func mustOpen(tb testing.TB) *neo4j.Store {
	tb.Helper()
	url := serverURL(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	st, err := neo4j.Open(ctx, neo4j.Config{
		URL:      url,
		Username: os.Getenv("LORE_TEST_NEO4J_USER"),
		Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD"),
	})
	if err != nil {
		tb.Fatalf("Open(%s): %v", url, err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return st
}

func TestStore(t *testing.T) {
	storetest.RunStore(t, "neo4j", func(tb testing.TB) lore.Store { return mustOpen(tb) })
}

func TestKeys(t *testing.T) {
	storetest.RunKeys(t, "neo4j", func(tb testing.TB) lore.KeyStore { return mustOpen(tb) })
}

func TestDirectory(t *testing.T) {
	storetest.RunDirectory(t, "neo4j", func(tb testing.TB) storetest.DirectoryStore { return mustOpen(tb) })
}

func TestProfile(t *testing.T) {
	storetest.RunProfile(t, "neo4j", func(tb testing.TB) storetest.ProfileBackend { return mustOpen(tb) })
}

func TestQueryLog(t *testing.T) {
	storetest.RunQueryLog(t, "neo4j", func(tb testing.TB) storetest.QueryLogBackend { return mustOpen(tb) })
}

func TestFeedback(t *testing.T) {
	storetest.RunFeedback(t, "neo4j", func(tb testing.TB) storetest.FeedbackBackend { return mustOpen(tb) })
}

func TestOutbox(t *testing.T) {
	storetest.RunOutbox(t, "neo4j", func(tb testing.TB) storetest.OutboxStore { return mustOpen(tb) })
}
