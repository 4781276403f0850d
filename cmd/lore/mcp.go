package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/mcp"
	"github.com/lore-memory/lore/ui"
)

// mcpServe runs `lore mcp`: an MCP server on stdin and stdout for a local
// client (Claude Desktop, an IDE) that starts it as a child process. The
// process opens the data directory itself and acts as the operator of one
// tenant, with no API key: whoever can start it can read the data directory
// anyway. --user pins the calls to one user, as a user-pinned key does.
// Logs go to stderr; stdout carries the protocol only.
func (m *Main) mcpServe(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("mcp", "[flags]   (MCP over stdin/stdout)")
	cfg.register(fs, e)
	tenant := fs.String("tenant", e.str("LORE_TENANT", lore.DefaultTenant), "the tenant the MCP client acts in (env LORE_TENANT)")
	user := fs.String("user", e.str("LORE_MCP_USER", ""), "pin every call to this user: tools need no user_id and refuse others (env LORE_MCP_USER)")
	workers := fs.Int("workers", e.int("LORE_WORKERS", 1), "background extraction workers, for add_memory with sync false (env LORE_WORKERS)")
	logLevel := fs.String("log-level", e.str("LORE_LOG_LEVEL", "warn"), "log level on stderr: debug, info, warn or error (env LORE_LOG_LEVEL)")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(m.Stderr, "lore mcp: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if err := lore.ValidateID("--tenant", *tenant); err != nil {
		return err
	}
	if err := lore.ValidateID("--user", *user); err != nil {
		return err
	}
	if *workers < 1 {
		return lore.Errorf(lore.EINVALID, "--workers must be positive")
	}
	if m.Logger == nil {
		l, err := newLogger(m.Stderr, "text", *logLevel)
		if err != nil {
			return err
		}
		m.Logger = l
	}
	log := m.Logger
	b, err := openBackends(ctx, cfg, log)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, b)
	if mg, ok := b.Store.(migrator); ok {
		if err := mg.Migrate(ctx); err != nil {
			return err
		}
	}
	icfg := ingest.DefaultConfig()
	icfg.Workers = *workers
	svc := b.ingestService(icfg, log)
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	srv := &api.Server{Store: b.Store, Index: b.Index, Ingest: svc, Search: b.pipeline(), Embedder: b.Embedder, Logger: log, Version: version}
	ms := &mcp.Server{API: srv.Routes(), OperatorTenant: *tenant, OperatorUser: *user, Version: version, Logger: log}

	workerCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	workersDone := make(chan error, 1)
	go func() { workersDone <- svc.RunWorkers(workerCtx) }()
	runErr := ms.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(m.Stdin), Writer: nopWriteCloser{m.Stdout}})
	stopWorkers()
	if err := <-workersDone; err != nil && !errors.Is(err, context.Canceled) {
		runErr = errors.Join(runErr, fmt.Errorf("workers: %w", err))
	}
	// The client closing stdin is the normal end of a session.
	if errors.Is(runErr, io.EOF) || errors.Is(runErr, context.Canceled) {
		runErr = nil
	}
	return runErr
}

// nopWriteCloser is a Writer whose Close leaves the stream open: stdout
// outlives the session.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// mountAdapters gives `lore serve` its MCP endpoint (/mcp) and web
// inspector (/ui), both behind the server's middleware.
func mountAdapters(srv *api.Server) {
	ms := &mcp.Server{API: srv.Routes(), Version: version, Logger: srv.Logger}
	srv.MCP = ms.HTTPHandler()
	srv.UI = ui.Handler()
}
