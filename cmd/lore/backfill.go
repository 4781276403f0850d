package main

import (
	"context"
	"fmt"

	"github.com/lore-memory/lore"
)

// backfillSuccess rebuilds the "answers that worked" table from the stored
// verdicts (issue 14). It is idempotent: a second run changes nothing.
func (m *Main) backfillSuccess(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("backfill-success", "[flags]")
	cfg.register(fs, e)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	store, err := openGraph(ctx, cfg)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, store)
	fb, ok := store.(lore.FeedbackStore)
	if !ok {
		return lore.Errorf(lore.EINVALID, "this store keeps no feedback")
	}
	n, err := fb.BackfillSuccess(ctx)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, map[string]any{"changed": n})
	}
	fmt.Fprintf(m.Stdout, "success rows added or changed: %d\n", n)
	return nil
}
