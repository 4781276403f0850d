package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// flagSet returns a FlagSet for a command that prints its usage to Stderr.
func (m *Main) flagSet(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(m.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(m.Stderr, "Usage: lore %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses a command's flags; a mistake is errUsage (the usage has
// been printed) and -h is flag.ErrHelp.
func parse(fs *flag.FlagSet, args []string, e *env) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return e.err()
}

// newLogger returns the server's logger writing to w in the given format
// and from the given level up.
func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "--log-level must be debug, info, warn or error, got %q", level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(requestIDHandler{slog.NewTextHandler(w, opts)}), nil
	case "json":
		return slog.New(requestIDHandler{slog.NewJSONHandler(w, opts)}), nil
	}
	return nil, lore.Errorf(lore.EINVALID, "--log-format must be text or json, got %q", format)
}

// serveConfig holds the flags of `lore serve`.
type serveConfig struct {
	backendConfig
	Addr            string
	Workers         int
	MaxBodyBytes    int
	ShutdownTimeout time.Duration
	InstanceID      string
	MaxPendingJobs  int
	security        security
	profile         profileFlags
}

func (m *Main) serve(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg serveConfig
	fs := m.flagSet("serve", "[flags]")
	cfg.backendConfig.register(fs, e)
	fs.StringVar(&cfg.Addr, "addr", e.str("LORE_ADDR", "127.0.0.1:8420"), "listen address (env LORE_ADDR)")
	fs.IntVar(&cfg.Workers, "workers", e.int("LORE_WORKERS", ingest.DefaultConfig().Workers), "background extraction workers (env LORE_WORKERS)")
	fs.IntVar(&cfg.MaxBodyBytes, "max-body-bytes", e.int("LORE_MAX_BODY_BYTES", api.DefaultMaxBodyBytes), "largest accepted request body (env LORE_MAX_BODY_BYTES)")
	fs.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", 30*time.Second, "how long in-flight requests may run after a stop signal")
	fs.StringVar(&cfg.InstanceID, "instance-id", e.str("LORE_INSTANCE_ID", ""),
		"this process's name in the jobs it claims, so a restart takes them back at once (env LORE_INSTANCE_ID; default: kept in <data-dir>/instance-id; give each process sharing a data directory its own)")
	fs.IntVar(&cfg.MaxPendingJobs, "max-pending-jobs", e.int("LORE_MAX_PENDING_JOBS", ingest.DefaultConfig().MaxPendingPerTenant),
		"most unfinished extraction jobs per tenant; past it adds get 429 with Retry-After; -1 unbounded (env LORE_MAX_PENDING_JOBS)")
	cfg.security.register(fs, e)
	cfg.profile.register(fs, e)
	logFormat := fs.String("log-format", e.str("LORE_LOG_FORMAT", "text"), "log format: text or json (env LORE_LOG_FORMAT)")
	logLevel := fs.String("log-level", e.str("LORE_LOG_LEVEL", "info"), "log level: debug, info, warn or error (env LORE_LOG_LEVEL)")
	retrieval := fs.String("retrieval", e.str("LORE_RETRIEVAL", ""), "a JSON file of retrieval settings over the defaults: ranking signals, policies, MMR (env LORE_RETRIEVAL)")
	intent := fs.String("intent", e.str("LORE_INTENT", retrieve.IntentRegex), "query intent strategy: regex, llm or hybrid (env LORE_INTENT)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run to this file, stopped when the server stops (go tool pprof)")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(m.Stderr, "lore serve: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if cfg.Workers < 1 || cfg.MaxBodyBytes < 1 {
		return lore.Errorf(lore.EINVALID, "--workers and --max-body-bytes must be positive")
	}
	if cfg.MaxPendingJobs == 0 || cfg.MaxPendingJobs < -1 {
		return lore.Errorf(lore.EINVALID, "--max-pending-jobs must be positive, or -1 for unbounded; got %d", cfg.MaxPendingJobs)
	}
	if err := cfg.security.check(); err != nil {
		return err
	}
	if m.Logger == nil {
		l, err := newLogger(m.Stderr, *logFormat, *logLevel)
		if err != nil {
			return err
		}
		m.Logger = l
	}
	log := m.Logger

	b, err := openBackends(ctx, cfg.backendConfig, log)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, b)
	mx := instrument(b)
	// Applying the schema is idempotent, so a server never runs on a
	// graph that lacks its constraints.
	if mg, ok := b.Store.(migrator); ok {
		if err := mg.Migrate(ctx); err != nil {
			return err
		}
	}
	icfg := ingest.DefaultConfig()
	icfg.Workers = cfg.Workers
	icfg.MaxPendingPerTenant = cfg.MaxPendingJobs
	id, shared, idLock, err := instanceID(cfg.InstanceID, cfg.DataDir)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, idLock)
	if shared {
		log.Warn("another process holds this data directory's instance id; this one runs under a fresh id, so a restart will not take back the jobs it held at once (give each process its own --data-dir or --instance-id)",
			"data_dir", cfg.DataDir, "instance", id)
	}
	icfg.InstanceID = id
	svc := b.ingestService(icfg, log)
	// Vectors of two models cannot be compared: refuse to start rather
	// than serve a mixed index.
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	search := b.pipeline()
	if err := cfg.profile.apply(search, cfg.backendConfig); err != nil {
		return err
	}
	if err := configurePipeline(search, *retrieval, *intent, cfg.backendConfig); err != nil {
		return err
	}
	// Episode keys hold the turn before within the window retrieval walks.
	svc.Config.ContextWindow = search.Config.ContextWindow
	if err := wireProfile(svc, search, b.Store, cfg.backendConfig); err != nil { // profile_flags.go
		return err
	}
	srv := &api.Server{
		Store: b.Store, Index: b.Index, Ingest: svc, Search: search, Embedder: b.Embedder,
		Logger: log, Version: version, MaxBodyBytes: int64(cfg.MaxBodyBytes),
	}
	attachMetrics(mx, b, svc, srv)
	mountAdapters(srv)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	if err := m.secure(ctx, srv, cfg, ln.Addr().String(), log); err != nil {
		_ = ln.Close()
		return err
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}

	// Workers outlive the stop signal until in-flight requests are done,
	// since a request may still enqueue a job.
	workerCtx, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWorkers()
	workersDone := make(chan error, 1)
	go func() { workersDone <- svc.RunWorkers(workerCtx) }()
	outboxDone := startOutbox(workerCtx, b.Store, svc, log)
	retentionDone, err := startRetention(workerCtx, srv, cfg.security.RetentionInterval, log)
	if err != nil {
		_ = ln.Close()
		return err
	}

	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			_ = ln.Close()
			return err
		}
		defer stop()
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	log.Info("lore serving", slog.String("addr", ln.Addr().String()), slog.String("version", version),
		slog.String("graph", cfg.Graph), slog.String("index", cfg.Index), slog.Bool("embedder", b.Embedder != nil),
		slog.String("extractor", cfg.Extractor), slog.String("data_dir", cfg.DataDir))
	if m.Listening != nil {
		m.Listening <- ln.Addr().String()
	}

	var runErr error
	workersRunning := true
	select {
	case <-ctx.Done():
		log.Info("stopping: finishing in-flight requests", slog.Duration("timeout", cfg.ShutdownTimeout))
	case err := <-serveErr:
		runErr = fmt.Errorf("http server: %w", err)
	case err := <-workersDone:
		// Without workers, accepted jobs would never run: stop serving.
		workersRunning = false
		runErr = fmt.Errorf("extraction workers stopped: %w", err)
		if err == nil {
			runErr = errors.New("extraction workers stopped")
		}
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("http shutdown: %w", err))
	}
	stopWorkers()
	<-retentionDone
	<-outboxDone
	if workersRunning {
		if err := <-workersDone; err != nil && !errors.Is(err, context.Canceled) {
			runErr = errors.Join(runErr, fmt.Errorf("workers: %w", err))
		}
	}
	if err := m.Close(); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("close store: %w", err))
	}
	if runErr == nil {
		log.Info("lore stopped")
	}
	return runErr
}
