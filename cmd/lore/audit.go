package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
)

// auditKeyFile is the file in the data directory that holds the audit key
// (HMAC-SHA256 of every record, and of pseudonyms) when LORE_AUDIT_KEY is
// not set. `lore audit verify` needs the same key as the server that wrote
// the log.
const auditKeyFile = "audit.key"

// auditLog returns the audit log over st, signed with the audit key.
func (m *Main) auditLog(dataDir string, st lore.Store, log *slog.Logger) (*audit.Log, error) {
	as, ok := st.(lore.AuditStore)
	if !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "this graph store cannot hold an audit log")
	}
	key, err := m.secret("LORE_AUDIT_KEY", dataDir, auditKeyFile)
	if err != nil {
		return nil, err
	}
	return &audit.Log{Store: as, Key: key, Logger: log}, nil
}

// recordCLI appends a record of a command's action, with "cli" as actor.
func (m *Main) recordCLI(ctx context.Context, dataDir string, st lore.Store, ev audit.Event) error {
	log, err := m.auditLog(dataDir, st, slog.New(slog.NewTextHandler(m.Stderr, nil)))
	if err != nil {
		return err
	}
	ev.Actor = "cli"
	_, err = log.Record(ctx, ev)
	return err
}

const auditUsage = `Usage: lore audit <verify|list|subject> [flags]

  verify  [--head SEQ:HASH]   check every record's hash, signature and link to the one before;
                              --head checks that a head noted earlier is still in the log
  list    [--tenant T] [--action A] [--after SEQ] [--limit N]
  subject --tenant T PSEUDONYM  whom a pseudonym stands for, until that user or agent is erased
`

func (m *Main) auditCmd(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, auditUsage)
		return errUsage
	}
	switch args[0] {
	case "verify":
		return m.auditVerify(ctx, args[1:])
	case "list":
		return m.auditList(ctx, args[1:])
	case "subject":
		return m.auditSubject(ctx, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(m.Stdout, auditUsage)
		return nil
	}
	fmt.Fprintf(m.Stderr, "lore audit: unknown command %q\n\n%s", args[0], auditUsage)
	return errUsage
}

// openAudit opens the graph store and its audit log for an audit command.
func (m *Main) openAudit(ctx context.Context, cfg backendConfig) (*audit.Log, error) {
	st, err := openGraph(ctx, cfg)
	if err != nil {
		return nil, err
	}
	m.closers = append(m.closers, st)
	if mg, ok := st.(migrator); ok {
		if err := mg.Migrate(ctx); err != nil {
			return nil, err
		}
	}
	return m.auditLog(cfg.DataDir, st, nil)
}

// errAuditBroken is returned when the log does not verify.
var errAuditBroken = lore.Errorf(lore.ECONFLICT, "the audit log does not verify")

func (m *Main) auditVerify(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("audit verify", "[--head SEQ:HASH] [--json]")
	cfg.register(fs, e)
	head := fs.String("head", "", "a head noted earlier (SEQ:HASH, as verify prints it) that must still be in the log")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	log, err := m.openAudit(ctx, cfg)
	if err != nil {
		return err
	}
	rep, err := log.Verify(ctx)
	if err != nil {
		return err
	}
	if *head != "" {
		seqText, hash, ok := strings.Cut(*head, ":")
		seq, err := strconv.ParseInt(seqText, 10, 64)
		if !ok || err != nil || seq < 1 {
			return lore.Errorf(lore.EINVALID, "--head must be SEQ:HASH, got %q", *head)
		}
		recs, err := log.Store.ListAudit(ctx, lore.AuditFilter{AfterSeq: seq - 1, Limit: 1})
		if err != nil {
			return err
		}
		if len(recs) == 0 || recs[0].Seq != seq || recs[0].Hash != hash {
			rep.Problems = append(rep.Problems, lore.AuditProblem{Seq: seq, Reason: "the head noted earlier is not in the log: records were removed from its end or replaced"})
		}
	}
	if *asJSON {
		if err := writeJSON(m.Stdout, rep); err != nil {
			return err
		}
	} else {
		for _, p := range rep.Problems {
			fmt.Fprintf(m.Stdout, "record %d: %s\n", p.Seq, p.Reason)
		}
		headText := "none (the log is empty)"
		if rep.Head != nil {
			headText = fmt.Sprintf("%d:%s", rep.Head.Seq, rep.Head.Hash)
		}
		status := "OK"
		if !rep.OK() {
			status = fmt.Sprintf("BROKEN (%d problems)", len(rep.Problems))
		}
		fmt.Fprintf(m.Stdout, "%s: %d records checked; head %s\n", status, rep.Checked, headText)
	}
	if !rep.OK() {
		return errAuditBroken
	}
	return nil
}

func (m *Main) auditList(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("audit list", "[--tenant T] [--action A] [--after SEQ] [--limit N] [--json]")
	cfg.register(fs, e)
	var f lore.AuditFilter
	fs.StringVar(&f.TenantID, "tenant", "", "only this tenant's records")
	fs.StringVar(&f.Action, "action", "", "only records of this action (erase, export, key.create, auth.failure, …)")
	fs.Int64Var(&f.AfterSeq, "after", 0, "only records after this sequence number")
	fs.IntVar(&f.Limit, "limit", 0, "at most this many records (0: all)")
	asJSON := fs.Bool("json", false, "print JSON lines")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	log, err := m.openAudit(ctx, cfg)
	if err != nil {
		return err
	}
	recs, err := log.Store.ListAudit(ctx, f)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(m.Stdout)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return fmt.Errorf("write json: %w", err)
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tTENANT\tACTION\tACTOR\tSUBJECT\tTARGET\tOUTCOME\tDETAIL")
	for _, r := range recs {
		var d []string
		for k, v := range r.Detail {
			d = append(d, k+"="+v)
		}
		slices.Sort(d)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Seq, r.Time.Format(time.RFC3339), r.TenantID, r.Action,
			dash(r.Actor), dash(r.Subject), dash(r.Target), r.Outcome, dash(strings.Join(d, " ")))
	}
	return tw.Flush()
}

func (m *Main) auditSubject(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("audit subject", "--tenant T PSEUDONYM")
	cfg.register(fs, e)
	tenant := fs.String("tenant", e.str("LORE_TENANT", lore.DefaultTenant), "the pseudonym's tenant")
	var p string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		p, args = args[0], args[1:]
	}
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if p == "" && fs.NArg() == 1 {
		p = fs.Arg(0)
	} else if p == "" || fs.NArg() != 0 {
		fmt.Fprintln(m.Stderr, "lore audit subject: give exactly one pseudonym")
		return errUsage
	}
	log, err := m.openAudit(ctx, cfg)
	if err != nil {
		return err
	}
	sub, err := log.Store.AuditSubject(ctx, *tenant, p)
	if err != nil {
		return err
	}
	return writeJSON(m.Stdout, sub)
}
