package main

import (
	"context"
	"fmt"

	"github.com/lore-memory/lore/ingest"
)

func (m *Main) reindex(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("reindex", "--user ID | --agent ID [flags]")
	cfg.register(fs, e)
	sf.register(fs, e)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	// One scope at a time: the store ports cannot list a tenant's users, so
	// there is no --all yet.
	scope, err := sf.scope()
	if err != nil {
		return err
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	// No CheckEmbedder here: re-embedding is how a store moves to another
	// embedder, and Reindex records the new one when it is done.
	n, err := b.ingestService(ingest.DefaultConfig(), m.quietLogger()).Reindex(ctx, scope)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, map[string]any{"scope": scope, "documents": n})
	}
	fmt.Fprintf(m.Stdout, "re-indexed %d documents\n", n)
	return nil
}

func (m *Main) migrate(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("migrate", "[flags]")
	cfg.register(fs, e)
	if err := parse(fs, args, e); err != nil {
		return err
	}
	store, err := openGraph(ctx, cfg)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, store)
	if mg, ok := store.(migrator); ok {
		if err := mg.Migrate(ctx); err != nil {
			return err
		}
	}
	// The embedded store applies its migrations when it opens.
	fmt.Fprintf(m.Stdout, "schema of %s is up to date\n", cfg.Graph)
	return nil
}
