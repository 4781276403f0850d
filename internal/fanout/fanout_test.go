package fanout

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestEachRunsEveryItemOnBoundedWorkers(t *testing.T) {
	var (
		mu         sync.Mutex
		seen       []int
		now, peak  atomic.Int32
		items      = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		workers    = 3
		errReturns error
	)
	errReturns = Each(context.Background(), workers, items, func(_ context.Context, n int) error {
		cur := now.Add(1)
		for p := peak.Load(); cur > p && !peak.CompareAndSwap(p, cur); p = peak.Load() {
		}
		time.Sleep(2 * time.Millisecond)
		now.Add(-1)
		mu.Lock()
		seen = append(seen, n)
		mu.Unlock()
		return nil
	})
	if errReturns != nil {
		t.Fatalf("Each: %v", errReturns)
	}
	slices.Sort(seen)
	if !slices.Equal(seen, items) {
		t.Errorf("ran %v, want %v", seen, items)
	}
	if p := peak.Load(); p > int32(workers) || p < 2 {
		t.Errorf("peak concurrency %d, want between 2 and %d", p, workers)
	}
}

func TestEachStopsAtTheFirstError(t *testing.T) {
	boom := errors.New("boom")
	var ran atomic.Int32
	items := make([]int, 100)
	for i := range items {
		items[i] = i
	}
	err := Each(context.Background(), 2, items, func(ctx context.Context, n int) error {
		ran.Add(1)
		if n == 3 {
			return boom
		}
		if n > 3 {
			<-ctx.Done() // a call under way sees the cancellation
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Each returned %v, want boom", err)
	}
	if n := ran.Load(); n > 10 {
		t.Errorf("%d items ran after an early error, want the rest skipped", n)
	}
}

func TestEachReportsACancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Each(ctx, 2, []int{1, 2, 3}, func(context.Context, int) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Each on a cancelled context returned %v, want context.Canceled", err)
	}
}
