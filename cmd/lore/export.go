package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/export"
	"github.com/lore-memory/lore/ingest"
)

// exportUser writes everything the store holds about a user as JSONL, as
// GET /v1/users/{id}/export does.
func (m *Main) exportUser(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("export", "--user ID [flags]   (JSONL on stdout, or --out FILE)")
	cfg.register(fs, e)
	sf.register(fs, e)
	out := fs.String("out", "", "write to FILE (created with mode 0600) instead of stdout")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if sf.User == "" {
		return lore.Errorf(lore.EINVALID, "--user is required")
	}
	scope, err := sf.scope()
	if err != nil {
		return err
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	var w io.Writer = m.Stdout
	if *out != "" {
		// The file holds personal data: readable by its owner only.
		f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer f.Close()
		w = f
	}
	// The export names the pseudonym the audit log names the user by.
	log, err := m.auditLog(cfg.DataDir, b.Store, slog.New(slog.NewTextHandler(m.Stderr, nil)))
	if err != nil {
		return err
	}
	p, _ := log.Pseudonym(scope)
	n, err := export.Write(ctx, w, b.Store, scope, time.Now(), export.WithAuditPseudonym(p))
	if err != nil {
		return err
	}
	if err := m.recordCLI(ctx, cfg.DataDir, b.Store, audit.Event{TenantID: scope.TenantID, Action: lore.AuditExport, Scope: &scope,
		Detail: countsDetail(n)}); err != nil {
		return err
	}
	if *out != "" {
		fmt.Fprintf(m.Stdout, "exported %d episodes, %d entities and %d facts to %s\n", n.Episodes, n.Entities, n.Facts, *out)
	}
	return nil
}

// importExport reads a file written by lore export (or the export route)
// into the store, each record moved to the tenant and user given on the
// command line when they are, and re-indexes the user.
func (m *Main) importExport(ctx context.Context, fs *flag.FlagSet, data []byte, cfg backendConfig, sf scopeFlags, asJSON bool) error {
	d, err := export.Read(bytes.NewReader(data))
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["agent"] || set["run"] {
		return lore.Errorf(lore.EINVALID, "an export is imported whole: --agent and --run do not apply")
	}
	remap := func(sc lore.Scope) lore.Scope {
		if set["tenant"] || m.getenv("LORE_TENANT") != "" {
			sc.TenantID = sf.Tenant
		}
		if set["user"] {
			sc.UserID = sf.User
		}
		return sc
	}
	scope := remap(d.Scope)
	if err := scope.Validate(); err != nil {
		return err
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	svc := b.ingestService(ingest.DefaultConfig(), m.quietLogger())
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	n, err := export.Import(ctx, b.Store, d, remap, time.Now())
	if err != nil {
		return err
	}
	docs, err := svc.Reindex(ctx, scope)
	if err != nil {
		return err
	}
	if err := m.recordCLI(ctx, cfg.DataDir, b.Store, audit.Event{TenantID: scope.TenantID, Action: lore.AuditImport, Scope: &scope,
		Detail: countsDetail(n)}); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(m.Stdout, map[string]any{"scope": scope, "imported": n, "indexed": docs})
	}
	fmt.Fprintf(m.Stdout, "imported %d episodes, %d entities and %d facts for %s/%s; indexed %d documents\n",
		n.Episodes, n.Entities, n.Facts, scope.TenantID, scope.UserID, docs)
	return nil
}

// countsDetail is an export's or import's counts as audit detail.
func countsDetail(n export.Counts) map[string]string {
	return map[string]string{"episodes": strconv.Itoa(n.Episodes), "entities": strconv.Itoa(n.Entities), "facts": strconv.Itoa(n.Facts)}
}
