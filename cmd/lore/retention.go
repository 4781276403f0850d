package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/retention"
)

// defaultRetentionInterval is how often `lore serve` sweeps.
const defaultRetentionInterval = 10 * time.Minute

// startRetention runs the retention sweeper over srv's store and index
// every interval until ctx ends (interval 0: never) and returns a channel
// closed when it has stopped.
func startRetention(ctx context.Context, srv *api.Server, interval time.Duration, log *slog.Logger) (<-chan struct{}, error) {
	done := make(chan struct{})
	if interval <= 0 {
		close(done)
		return done, nil
	}
	rs, ok := srv.Store.(lore.RetentionStore)
	if !ok {
		close(done)
		return done, lore.Errorf(lore.EUNAVAILABLE, "this graph store cannot enforce retention; start with --retention-interval 0")
	}
	sw := &retention.Sweeper{Store: rs, Meta: srv.Store, Index: srv.Index, Audit: srv.Audit, Logger: log}
	sw.Erasures, _ = srv.Store.(lore.ErasurePruner)
	sw.QueryLog, _ = srv.Store.(lore.QueryLogStore)
	go func() {
		defer close(done)
		_ = sw.Run(ctx, interval)
	}()
	return done, nil
}

const retentionUsage = `Usage: lore retention <sweep|set|show> [flags]

  sweep                              delete expired memories and drop raw text past each tenant's policy now
  set --tenant T --raw-text-days N   keep T's conversation text N days (0: forever); facts stay
      [--query-log-days D]           keep T's searches D days in their users' query logs for batch
                                     profile inference (0, the default: keep none)
  show --tenant T                    T's policy
`

func (m *Main) retentionCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, retentionUsage)
		return errUsage
	}
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("retention "+args[0], "[flags]")
	cfg.register(fs, e)
	tenant := fs.String("tenant", e.str("LORE_TENANT", lore.DefaultTenant), "the tenant")
	days := fs.Int("raw-text-days", -1, "days to keep conversation text (set)")
	qdays := fs.Int("query-log-days", -1, "days to keep searches in the query log (set; unset: unchanged)")
	switch args[0] {
	case "sweep", "set", "show":
	case "help", "-h", "--help":
		fmt.Fprint(m.Stdout, retentionUsage)
		return nil
	default:
		fmt.Fprintf(m.Stderr, "lore retention: unknown command %q\n\n%s", args[0], retentionUsage)
		return errUsage
	}
	if err := parse(fs, args[1:], e); err != nil {
		return err
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	alog, err := m.auditLog(cfg.DataDir, b.Store, nil)
	if err != nil {
		return err
	}
	switch args[0] {
	case "show":
		p, err := retention.Policy(ctx, b.Store, *tenant)
		if err != nil {
			return err
		}
		return writeJSON(m.Stdout, p)
	case "set":
		if *days < 0 {
			return lore.Errorf(lore.EINVALID, "--raw-text-days is required (0 keeps text forever)")
		}
		p, err := retention.Policy(ctx, b.Store, *tenant)
		if err != nil {
			return err
		}
		p.RawTextDays = *days
		if *qdays >= 0 {
			p.QueryLogDays = *qdays
		}
		if err := retention.SetPolicy(ctx, b.Store, *tenant, p); err != nil {
			return err
		}
		_, err = alog.Record(ctx, audit.Event{TenantID: *tenant, Action: lore.AuditRetentionSet, Actor: "cli",
			Detail: map[string]string{"raw_text_days": fmt.Sprint(p.RawTextDays), "query_log_days": fmt.Sprint(p.QueryLogDays)}})
		return err
	}
	rs, ok := b.Store.(lore.RetentionStore)
	if !ok {
		return lore.Errorf(lore.EUNAVAILABLE, "this graph store cannot enforce retention")
	}
	sw := &retention.Sweeper{Store: rs, Meta: b.Store, Index: b.Index, Audit: alog, Logger: m.quietLogger()}
	sw.Erasures, _ = b.Store.(lore.ErasurePruner)
	sw.QueryLog, _ = b.Store.(lore.QueryLogStore)
	rep, err := sw.Sweep(ctx)
	if err != nil {
		return err
	}
	return writeJSON(m.Stdout, rep)
}
