package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

const profileUsage = `Usage: lore profile <get|set|delete|inference|infer> [flags]

  get       --user U [--history]          the user's profile entries (and replaced ones)
  set       --user U KEY=VALUE...         explicit entries, as the user's own settings would set them
  delete    --user U KEY                  forget one key and its history
  inference [--tenant T] on|off           let searches of the tenant's users feed their profiles (default on)
  infer     --user U                      queue batch LLM inference over the user's logged searches now (a
                                          lore serve with LORE_LLM_* runs it; the tenant needs query_log_days)
`

func (m *Main) profile(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, profileUsage)
		return errUsage
	}
	switch args[0] {
	case "get", "set", "delete", "inference", "infer":
		return m.profileCmd(ctx, args[0], args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(m.Stdout, profileUsage)
		return nil
	}
	fmt.Fprintf(m.Stderr, "lore profile: unknown command %q\n\n%s", args[0], profileUsage)
	return errUsage
}

func (m *Main) profileCmd(ctx context.Context, cmd string, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("profile "+cmd, "--user ID [flags] [args...]")
	cfg.register(fs, e)
	sf.register(fs, e)
	history := fs.Bool("history", false, "also show the entries newer ones replaced")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	rest := fs.Args()
	scope := lore.Scope{TenantID: sf.Tenant, UserID: sf.User}.WithDefaults()
	if cmd == "inference" {
		if len(rest) != 1 || (rest[0] != "on" && rest[0] != "off") {
			return lore.Errorf(lore.EINVALID, "lore profile inference takes on or off")
		}
	} else if err := lore.ValidateProfileScope(scope); err != nil {
		return lore.Errorf(lore.EINVALID, "%s (use --user)", lore.ErrorMessage(err))
	}
	// Check the arguments before opening anything.
	var entries []lore.ProfileEntry
	now := time.Now().UTC()
	switch cmd {
	case "set":
		if len(rest) == 0 {
			return lore.Errorf(lore.EINVALID, "lore profile set takes KEY=VALUE arguments")
		}
		for _, kv := range rest {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return lore.Errorf(lore.EINVALID, "%q is not KEY=VALUE", kv)
			}
			en := lore.ProfileEntry{Key: k, Value: v, Source: lore.ProfileExplicit, Evidence: []string{"cli"}, UpdatedAt: now}
			if err := en.Normalize(now); err != nil {
				return err
			}
			entries = append(entries, en)
		}
	case "delete":
		if len(rest) != 1 {
			return lore.Errorf(lore.EINVALID, "lore profile delete takes one KEY")
		}
	}
	st, err := openGraph(ctx, cfg)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, st)
	if cmd == "inference" {
		value := "false"
		if rest[0] == "off" {
			value = "true"
		}
		if err := st.SetMeta(ctx, ingest.ProfileInferenceOff+scope.TenantID, value); err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "profile inference from searches is %s for tenant %q\n", rest[0], scope.TenantID)
		return nil
	}
	if cmd == "infer" {
		if _, ok := st.(lore.QueryLogStore); !ok {
			return lore.Errorf(lore.EUNAVAILABLE, "this graph store keeps no query logs")
		}
		id, err := (&ingest.Service{Store: st}).EnqueueProfileBatch(ctx, scope)
		if err != nil {
			return err
		}
		fmt.Fprintln(m.Stdout, id)
		return nil
	}
	ps, ok := st.(lore.ProfileStore)
	if !ok {
		return lore.Errorf(lore.EUNAVAILABLE, "this graph store keeps no profiles")
	}
	switch cmd {
	case "set":
		for _, en := range entries {
			w, err := ps.PutProfileEntry(ctx, scope, en)
			if err != nil {
				return err
			}
			if !w.Written {
				fmt.Fprintf(m.Stderr, "%s=%s not written: %s\n", en.Key, en.Value, w.Reason)
			}
		}
	case "delete":
		key, err := lore.NormalizePredicate(rest[0])
		if err != nil {
			return err
		}
		n, err := ps.DeleteProfileKey(ctx, scope, key)
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "deleted %d entries of %s\n", n, key)
		return nil
	}
	cur, err := ps.ProfileEntries(ctx, scope)
	if err != nil {
		return err
	}
	var hist []lore.ProfileEntry
	if *history {
		if hist, err = ps.ProfileHistory(ctx, scope, ""); err != nil {
			return err
		}
	}
	if *asJSON {
		out := map[string]any{"entries": cur}
		if *history {
			out["history"] = hist
		}
		return writeJSON(m.Stdout, out)
	}
	tw := tabwriter.NewWriter(m.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tSOURCE\tCONFIDENCE\tUPDATED\tREPLACED")
	for _, en := range append(cur, hist...) {
		replaced := ""
		if en.ReplacedAt != nil {
			replaced = en.ReplacedAt.Format(time.DateOnly)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f\t%s\t%s\n", en.Key, en.Value, en.Source, en.Confidence, en.UpdatedAt.Format(time.DateOnly), replaced)
	}
	return tw.Flush()
}
