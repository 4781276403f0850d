package sqlite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/sqlite"
)

// crashEnv names the database the helper process writes before it dies.
const crashEnv = "LORE_SQLITE_CRASH_DB"

// TestCrashHelper is the child of TestAcknowledgedWritesSurviveCrash: it
// writes, then exits without closing anything, as a crashed server would.
func TestCrashHelper(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("runs only as the child of TestAcknowledgedWritesSurviveCrash")
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		os.Exit(2)
	}
	sc := lore.Scope{TenantID: "t", UserID: "alice"}
	if err := st.AddEpisodes(ctx, []*lore.Episode{{ID: "ep-1", Scope: sc, Role: "user", Content: "I live in Oslo"}}); err != nil {
		os.Exit(3)
	}
	if err := st.EnqueueJob(ctx, &lore.Job{ID: "job-1", Scope: sc, Kind: "extract", EpisodeIDs: []string{"ep-1"}, MaxAttempts: 3}); err != nil {
		os.Exit(4)
	}
	if err := st.Index().Upsert(ctx, []lore.IndexDoc{{ID: "ep-1", Kind: lore.KindEpisode, Scope: sc, Text: "I live in Oslo"}}); err != nil {
		os.Exit(5)
	}
	// No Close: the WAL is never checkpointed by this process.
	os.Exit(0)
}

func TestAcknowledgedWritesSurviveCrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lore.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
	ctx := context.Background()
	st := mustReopen(t, path)
	sc := lore.Scope{TenantID: "t", UserID: "alice"}
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	if err != nil || len(eps) != 1 || eps[0].Content != "I live in Oslo" {
		t.Fatalf("episodes after crash=%+v err=%v, want the acknowledged episode", eps, err)
	}
	job, err := st.GetJob(ctx, "t", "job-1")
	if err != nil || job.Status != lore.JobQueued {
		t.Fatalf("job after crash=%+v err=%v, want it queued", job, err)
	}
	idx := st.Index()
	defer idx.Close()
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "Oslo"})
	if err != nil || len(hits) != 1 {
		t.Fatalf("text hits after crash=%+v err=%v, want the episode", hits, err)
	}
}
