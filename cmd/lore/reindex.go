package main

import (
	"context"
	"fmt"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

func (m *Main) reindex(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("reindex", "--user ID | --agent ID | --all [flags]")
	cfg.register(fs, e)
	sf.register(fs, e)
	all := fs.Bool("all", false, "re-index every scope of the tenant")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	var scope lore.Scope
	switch {
	case *all && (sf.User != "" || sf.Agent != "" || sf.Run != ""):
		return lore.Errorf(lore.EINVALID, "--all excludes --user, --agent and --run")
	case *all:
		// The zero user and agent ask ingest for every scope of the tenant.
		scope = lore.Scope{TenantID: sf.Tenant}
	default:
		var err error
		if scope, err = sf.scope(); err != nil {
			return lore.Errorf(lore.EINVALID, "%s, or --all", lore.ErrorMessage(err))
		}
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
