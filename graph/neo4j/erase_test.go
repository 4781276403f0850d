package neo4j_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/graph/neo4j"
)

// TestEraseSeqNeverPassesAnEraseInProgress checks what a job relies on when
// it fences itself: a writer that reads EraseSeq = v and then loads records
// never loads one that an erase numbered v or lower has yet to delete.
// Readers loop over EraseSeq and a read of the erased user's episodes while
// the user is erased; a reader that got the erase's own number (or more)
// and still found an episode would extract from it and write what the
// fence then lets through. Neo4j reads without locks see a commit's
// changes one record at a time, so a lock-free EraseSeq can read the fence
// node's new number before the erasure in progress becomes visible; the
// store reads both under the fence lock. LORE_TEST_ERASE_SEQ_ROUNDS sets
// the number of erases (default 40).
func TestEraseSeqNeverPassesAnEraseInProgress(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	rounds := 40
	if v, err := strconv.Atoi(os.Getenv("LORE_TEST_ERASE_SEQ_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	tenant := "neo4j-test-" + uuid.NewString()
	t.Cleanup(func() {
		if _, err := st.DeleteScope(context.Background(), lore.Scope{TenantID: tenant}); err != nil {
			t.Errorf("cleanup DeleteScope: %v", err)
		}
	})
	var violations, reads atomic.Int64
	for round := 1; round <= rounds; round++ {
		victim := lore.Scope{TenantID: tenant, UserID: fmt.Sprintf("u%d", round)}
		eps := make([]*lore.Episode, 200)
		for i := range eps {
			eps[i] = &lore.Episode{Scope: victim, Role: "user", Content: fmt.Sprintf("turn %d of round %d", i, round),
				OccurredAt: time.Date(2024, 1, 1, 0, 0, i, 0, time.UTC)}
		}
		if err := st.AddEpisodes(ctx, eps); err != nil {
			t.Fatalf("round %d: AddEpisodes: %v", round, err)
		}
		// Fenced writes of another user keep taking the fence lock, as a
		// tenant's running jobs do.
		bystander := lore.Scope{TenantID: tenant, UserID: "bystander"}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for r := range 4 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if r == 0 {
						fctx := lore.WithFence(ctx, lore.Fence{Scope: bystander, Seq: 1 << 40})
						if _, err := st.MergeEntity(fctx, &lore.Entity{Scope: bystander, Name: "Paris"}); err != nil {
							t.Errorf("round %d: bystander MergeEntity: %v", round, err)
							return
						}
						continue
					}
					v, err := st.EraseSeq(ctx, tenant)
					if err != nil {
						t.Errorf("round %d: EraseSeq: %v", round, err)
						return
					}
					reads.Add(1)
					if v < int64(round) {
						continue
					}
					left, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: victim, Limit: 1})
					if err != nil {
						t.Errorf("round %d: FindEpisodes: %v", round, err)
						return
					}
					if len(left) > 0 {
						violations.Add(1)
						t.Errorf("round %d: EraseSeq=%d while erase %d still had episodes to delete", round, v, round)
					}
				}
			})
		}
		if _, err := st.DeleteScope(ctx, victim); err != nil {
			t.Fatalf("round %d: DeleteScope: %v", round, err)
		}
		close(stop)
		wg.Wait()
	}
	t.Logf("%d erases, %d EraseSeq reads: %d passed an erase in progress", rounds, reads.Load(), violations.Load())
}

// TestPruneErasuresWithInjectedClock records erases under a clock ten
// years back (so that pruning by time touches no other test's erasures on
// a shared server): a prune before them keeps them, one after them removes
// the finished ones, the fence node keeps the sequence (EraseSeq does not
// go back) and a later erase still refuses a writer fenced before the
// prune.
func TestPruneErasuresWithInjectedClock(t *testing.T) {
	url := serverURL(t)
	past := time.Now().UTC().AddDate(-10, 0, 0)
	clock := past
	st, err := neo4j.Open(context.Background(), neo4j.Config{URL: url, Username: os.Getenv("LORE_TEST_NEO4J_USER"),
		Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD"), Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	alice := lore.Scope{TenantID: "neo4j-test-" + uuid.NewString(), UserID: "alice"}
	t.Cleanup(func() { st.DeleteScope(context.Background(), lore.Scope{TenantID: alice.TenantID}) })

	fence, err := st.EraseSeq(ctx, alice.TenantID)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := st.DeleteScope(ctx, alice); err != nil {
			t.Fatalf("DeleteScope: %v", err)
		}
		clock = clock.Add(time.Minute)
	}
	seq, err := st.EraseSeq(ctx, alice.TenantID)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := st.PruneErasures(ctx, past); err != nil || n != 0 {
		t.Fatalf("PruneErasures(before the erases) = %d, %v; want 0", n, err)
	}
	if gone, err := st.Erased(ctx, alice, fence); err != nil || !gone {
		t.Fatalf("Erased before pruning = %v, %v; want true", gone, err)
	}
	if n, err := st.PruneErasures(ctx, clock); err != nil || n != 2 {
		t.Fatalf("PruneErasures(after the erases) = %d, %v; want 2", n, err)
	}
	if gone, err := st.Erased(ctx, alice, fence); err != nil || gone {
		t.Fatalf("Erased after pruning = %v, %v; want false (the records are gone)", gone, err)
	}
	if after, err := st.EraseSeq(ctx, alice.TenantID); err != nil || after != seq {
		t.Fatalf("EraseSeq after pruning = %d, %v; want %d (the sequence stays)", after, err, seq)
	}
	if _, err := st.DeleteScope(ctx, alice); err != nil {
		t.Fatalf("DeleteScope after pruning: %v", err)
	}
	fctx := lore.WithFence(ctx, lore.Fence{Scope: alice, Seq: seq})
	if _, err := st.MergeEntity(fctx, &lore.Entity{Scope: alice, Name: "Paris"}); !errors.Is(err, lore.ErrScopeErased) {
		t.Fatalf("write fenced before the last erase: err=%v, want lore.ErrScopeErased", err)
	}
}
