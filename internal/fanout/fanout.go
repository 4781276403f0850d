// Package fanout runs independent pieces of work on a bounded number of
// goroutines: the users of an import or of a benchmark, whose ingestion
// shares nothing but the store.
package fanout

import (
	"context"
	"sync"
)

// Each calls fn for every item, on at most workers goroutines (at least
// one), handing the items out in order. The first error cancels the
// context the other calls get, stops handing out items, and is returned
// once the calls under way have returned.
func Each[T any](ctx context.Context, workers int, items []T, fn func(context.Context, T) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		once     sync.Once
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan T)
	for range max(workers, 1) {
		wg.Go(func() {
			for item := range next {
				if err := fn(ctx, item); err != nil {
					once.Do(func() { firstErr = err; cancel(err) })
				}
			}
		})
	}
	for _, item := range items {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- item:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return firstErr
}
