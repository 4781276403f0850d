package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/client"
	"github.com/lore-memory/lore/ingest"
)

// quietLogger is the logger of the data commands: warnings and errors only,
// so their output stays readable.
func (m *Main) quietLogger() *slog.Logger {
	if m.Logger != nil {
		return m.Logger
	}
	return slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// openData opens the backends for a data command; Close releases them.
func (m *Main) openData(ctx context.Context, cfg backendConfig) (*backends, error) {
	b, err := openBackends(ctx, cfg, m.quietLogger())
	if err != nil {
		return nil, err
	}
	m.closers = append(m.closers, b)
	return b, nil
}

// scopeFlags are the scope flags of the data commands.
type scopeFlags struct {
	Tenant, User, Agent, Run string
}

func (s *scopeFlags) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&s.Tenant, "tenant", e.str("LORE_TENANT", lore.DefaultTenant), "tenant (env LORE_TENANT)")
	fs.StringVar(&s.User, "user", "", "user id")
	fs.StringVar(&s.Agent, "agent", "", "agent id")
	fs.StringVar(&s.Run, "run", "", "run id")
}

// scope returns the validated scope; a user or an agent is required.
func (s *scopeFlags) scope() (lore.Scope, error) {
	sc := lore.Scope{TenantID: s.Tenant, UserID: s.User, AgentID: s.Agent, RunID: s.Run}.WithDefaults()
	if err := sc.Validate(); err != nil {
		return sc, lore.Errorf(lore.EINVALID, "%s (use --user or --agent)", lore.ErrorMessage(err))
	}
	return sc, nil
}

func (m *Main) add(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("add", "--user ID [flags] [text...]   (text from stdin when no arguments)")
	cfg.register(fs, e)
	sf.register(fs, e)
	var rf remoteFlags
	rf.register(fs, e)
	role := fs.String("role", "user", "message role: user, assistant, system or tool")
	name := fs.String("name", "", "speaker name")
	sync := fs.Bool("sync", false, "extract within the command instead of queueing a job for `lore serve`")
	infer := fs.Bool("infer", true, "extract facts; false stores the text verbatim as a memory")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	scope, err := sf.scope()
	if err != nil {
		return err
	}
	text := strings.Join(fs.Args(), " ")
	if fs.NArg() == 0 {
		b, err := io.ReadAll(m.Stdin)
		if err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		text = string(b)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return lore.Errorf(lore.EINVALID, "no text: give it as arguments or on stdin")
	}
	if rf.Server != "" {
		return m.addRemote(ctx, rf, scope, client.Message{Role: *role, Content: text, Name: *name}, *infer, *sync, *asJSON)
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	svc := b.ingestService(ingest.DefaultConfig(), m.quietLogger())
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	res, err := svc.Add(ctx, ingest.AddRequest{
		Scope:    scope,
		Messages: []ingest.Message{{Role: *role, Content: text, Name: *name}},
		Infer:    *infer,
		Sync:     *sync,
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, res)
	}
	fmt.Fprintf(m.Stdout, "stored episode %s\n", strings.Join(res.EpisodeIDs, ", "))
	if res.JobID != "" {
		fmt.Fprintf(m.Stdout, "extraction queued as job %s; it runs when `lore serve` runs on this data directory\n", res.JobID)
	}
	printEvents(m.Stdout, res.Events)
	return nil
}

// printEvents prints memory events one a line: "ADD     fact     text".
func printEvents(w io.Writer, events []lore.MemoryEvent) {
	for _, ev := range events {
		ended := ""
		if ev.InvalidAt != nil {
			ended = " (no longer true since " + ev.InvalidAt.Format(time.DateOnly) + ")"
		}
		fmt.Fprintf(w, "%-10s %-8s %s%s\n", ev.Event, ev.Type, ev.Memory, ended)
	}
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
