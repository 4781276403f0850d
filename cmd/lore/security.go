package main

import (
	"context"
	"flag"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
)

// security holds the flags of `lore serve` that decide who may call it.
type security struct {
	Auth        string  // auto | required
	CORSOrigins string  // comma-separated origins allowed from browsers
	RateLimit   float64 // requests per second per key; 0: no limit
	RateBurst   int
	// RetentionInterval is how often the retention sweeper runs; 0: never.
	RetentionInterval time.Duration
}

// Defaults of the per-key rate limit: generous for an agent, a brake on a
// runaway loop or a scraper.
const (
	defaultRateLimit = 50
	defaultRateBurst = 100
)

func (s *security) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&s.Auth, "auth", e.str("LORE_AUTH", "auto"), "API keys: auto (required, except on a loopback address before the first key exists) or required (env LORE_AUTH)")
	fs.StringVar(&s.CORSOrigins, "cors-origins", e.str("LORE_CORS_ORIGINS", ""), "comma-separated origins browsers may call from (https://app.example); none by default (env LORE_CORS_ORIGINS)")
	fs.Float64Var(&s.RateLimit, "rate-limit", e.float("LORE_RATE_LIMIT", defaultRateLimit), "requests per second per API key; 0 turns the limit off (env LORE_RATE_LIMIT)")
	fs.DurationVar(&s.RetentionInterval, "retention-interval", e.duration("LORE_RETENTION_INTERVAL", defaultRetentionInterval),
		"how often expired memories are deleted and raw text past a tenant's policy dropped; 0 turns the sweeper off (env LORE_RETENTION_INTERVAL)")
	fs.IntVar(&s.RateBurst, "rate-burst", e.int("LORE_RATE_BURST", defaultRateBurst), "requests a key may send at once above the rate (env LORE_RATE_BURST)")
}

func (s *security) check() error {
	if s.Auth != "auto" && s.Auth != "required" {
		return lore.Errorf(lore.EINVALID, "--auth must be auto or required, got %q", s.Auth)
	}
	if s.RateLimit < 0 || s.RateBurst < 0 {
		return lore.Errorf(lore.EINVALID, "--rate-limit and --rate-burst must not be negative")
	}
	return nil
}

// origins returns the CORS allow-list.
func (s *security) origins() []string {
	var out []string
	for _, o := range strings.Split(s.CORSOrigins, ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// secure installs the browser-safety and authentication middleware on srv
// for a server listening on addr, and says loudly when it serves without
// keys.
func (m *Main) secure(ctx context.Context, srv *api.Server, cfg serveConfig, addr string, log *slog.Logger) error {
	ks, err := keyStore(srv.Store)
	if err != nil {
		return err
	}
	secret, err := m.keySecret(cfg.DataDir)
	if err != nil {
		return err
	}
	auth := &api.Auth{
		Keys: ks, Secret: secret, Required: cfg.security.Auth == "required", Loopback: api.IsLoopback(addr),
		Rate: cfg.security.RateLimit, Burst: cfg.security.RateBurst, Logger: log,
	}
	browser := &api.Browser{AllowedOrigins: cfg.security.origins(), AllowedHosts: api.LoopbackHosts(addr), Logger: log}
	alog, err := m.auditLog(cfg.DataDir, srv.Store, log)
	if err != nil {
		return err
	}
	srv.Auth, srv.Audit, auth.Audit = auth, alog, alog
	srv.Middleware = append(srv.Middleware, browser.Middleware, auth.Middleware)
	open, err := auth.Open(ctx)
	if err != nil {
		return err
	}
	switch has, err := ks.HasKeys(ctx); {
	case err != nil:
		return err
	case open:
		log.Warn("AUTHENTICATION IS OFF: no API key exists and the server listens on loopback only, so any local process (not a web page: CORS and the Host check refuse those) can read and write every tenant's memories. Create a key with `lore keys create --tenant T` to turn authentication on, or start with --auth required.",
			slog.String("addr", addr))
	case !has:
		log.Warn("no API key exists yet: every request will be refused with 401 until you create one with `lore keys create --tenant T`", slog.String("addr", addr))
	default:
		log.Info("API keys required", slog.String("addr", addr), slog.Float64("rate_limit", cfg.security.RateLimit), slog.Int("rate_burst", cfg.security.RateBurst))
	}
	return nil
}

// duration reads a LORE_* variable as a Go duration (10m, 1h).
func (e *env) duration(name string, def time.Duration) time.Duration {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		e.errs = append(e.errs, lore.Errorf(lore.EINVALID, "%s=%q is not a duration such as 10m", name, v))
		return def
	}
	return d
}

// float reads a LORE_* variable as a number.
func (e *env) float(name string, def float64) float64 {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		e.errs = append(e.errs, lore.Errorf(lore.EINVALID, "%s=%q is not a number", name, v))
		return def
	}
	return f
}
