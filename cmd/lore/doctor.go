package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

// doctor compares the index with the store (ingest.Service.Doctor) for a
// user, an agent, a tenant or every tenant, and with --repair fixes what
// differs. It fails when it found differences it did not repair.
func (m *Main) doctor(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("doctor", "[--user ID | --agent ID | --tenant T | --all] [--repair] [flags]")
	cfg.register(fs, e)
	sf.register(fs, e)
	all := fs.Bool("all", false, "every tenant")
	repair := fs.Bool("repair", false, "write what is missing or stale and delete what the store no longer holds")
	vectors := fs.Bool("vectors", false, "also re-embed every document and compare its vector (slow)")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if sf.Run != "" {
		return lore.Errorf(lore.EINVALID, "the doctor works on a user, an agent, a tenant or --all, not a run")
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	svc := b.ingestService(ingest.DefaultConfig(), m.quietLogger())
	var scopes []lore.Scope
	switch {
	case *all:
		tl, ok := b.Store.(lore.TenantLister)
		if !ok {
			return lore.Errorf(lore.EUNAVAILABLE, "this store cannot list its tenants")
		}
		tenants, err := tl.Tenants(ctx)
		if err != nil {
			return err
		}
		for _, t := range tenants {
			scopes = append(scopes, lore.Scope{TenantID: t})
		}
	case sf.User == "" && sf.Agent == "":
		scopes = []lore.Scope{{TenantID: lore.Scope{TenantID: sf.Tenant}.WithDefaults().TenantID}}
	default:
		sc, err := sf.scope()
		if err != nil {
			return err
		}
		scopes = []lore.Scope{sc}
	}
	var (
		reports  []*ingest.DoctorReport
		found    int
		repaired int
	)
	for _, sc := range scopes {
		rep, err := svc.Doctor(ctx, sc, ingest.DoctorOptions{Repair: *repair, Vectors: *vectors})
		if err != nil {
			return err
		}
		reports = append(reports, rep)
		found += len(rep.Differences)
		repaired += rep.Repaired
	}
	if *asJSON {
		if err := writeJSON(m.Stdout, map[string]any{"reports": reports, "differences": found, "repaired": repaired}); err != nil {
			return err
		}
	} else {
		for _, rep := range reports {
			byProblem := map[string]int{}
			for _, d := range rep.Differences {
				byProblem[d.Problem]++
			}
			fmt.Fprintf(m.Stdout, "%s: %d documents expected from the store, %d in the index, %d differences",
				describeScope(rep.Scope), rep.StoreDocs, rep.IndexDocs, len(rep.Differences))
			for _, p := range []string{ingest.ProblemMissing, ingest.ProblemOrphan, ingest.ProblemText, ingest.ProblemTime, ingest.ProblemNoVector, ingest.ProblemStaleVector} {
				if n := byProblem[p]; n > 0 {
					fmt.Fprintf(m.Stdout, "; %s %d", p, n)
				}
			}
			if *repair {
				fmt.Fprintf(m.Stdout, "; repaired %d", rep.Repaired)
			}
			fmt.Fprintln(m.Stdout)
			for i, d := range rep.Differences {
				if i == 10 {
					fmt.Fprintf(m.Stdout, "  … and %d more\n", len(rep.Differences)-10)
					break
				}
				fmt.Fprintf(m.Stdout, "  %s %s (%s): %s\n", d.Kind, d.ID, describeScope(d.Scope), d.Problem)
			}
		}
	}
	if found > 0 && !*repair {
		return lore.Errorf(lore.ECONFLICT, "store and index differ in %d documents; run lore doctor --repair", found)
	}
	return nil
}

// describeScope names a scope for the doctor's summary.
func describeScope(sc lore.Scope) string {
	s := "tenant " + sc.TenantID
	if sc.UserID != "" {
		s += " user " + sc.UserID
	}
	if sc.AgentID != "" {
		s += " agent " + sc.AgentID
	}
	if sc.RunID != "" {
		s += " run " + sc.RunID
	}
	return s
}

// startOutbox runs the store's outbox worker (ingest.OutboxWorker) until
// ctx ends; the channel closes when it has stopped. A store without an
// outbox gets none.
func startOutbox(ctx context.Context, store lore.Store, svc *ingest.Service, log *slog.Logger) <-chan struct{} {
	done := make(chan struct{})
	ob, ok := store.(lore.Outbox)
	if !ok {
		close(done)
		return done
	}
	w := &ingest.OutboxWorker{Service: svc, Outbox: ob}
	go func() {
		defer close(done)
		if err := w.Run(ctx); err != nil {
			log.Error("outbox worker stopped", slog.Any("err", err))
		}
	}()
	return done
}
