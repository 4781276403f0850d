package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/api"
	"github.com/lore-memory/lore/audit"
)

// keySecretFile is the file in the data directory that holds the server's
// key secret, the HMAC key of stored key hashes, when LORE_KEY_SECRET is not
// set. Every process that checks or creates keys of one store needs the
// same secret.
const keySecretFile = "key.secret"

// minKeySecret is the shortest LORE_KEY_SECRET accepted, in bytes.
const minKeySecret = 32

// keySecret returns the key secret: LORE_KEY_SECRET, or the data
// directory's key.secret, created with 32 random bytes (hex) and mode 0600
// on first use.
func (m *Main) keySecret(dataDir string) ([]byte, error) {
	return m.secret("LORE_KEY_SECRET", dataDir, keySecretFile)
}

// secret returns a server secret: the environment variable name, or the
// data directory's file, created with 32 random bytes (hex) and mode 0600
// on first use. Either must hold at least minKeySecret bytes.
func (m *Main) secret(name, dataDir, file string) ([]byte, error) {
	if v := m.getenv(name); v != "" {
		if len(v) < minKeySecret {
			return nil, lore.Errorf(lore.EINVALID, "%s must be at least %d bytes", name, minKeySecret)
		}
		return []byte(v), nil
	}
	path := filepath.Join(dataDir, file)
	if raw, err := os.ReadFile(path); err == nil {
		secret := strings.TrimSpace(string(raw))
		if len(secret) < minKeySecret {
			return nil, lore.Errorf(lore.EINVALID, "%s holds fewer than %d bytes; delete it only if nothing was made with it", path, minKeySecret)
		}
		return []byte(secret), nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	secret := hex.EncodeToString(b)
	// O_EXCL: two processes starting together must not write two secrets;
	// the loser reads the winner's.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return m.secret(name, dataDir, file)
	} else if err != nil {
		return nil, fmt.Errorf("create %s: %w", file, err)
	}
	_, werr := f.WriteString(secret + "\n")
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return nil, fmt.Errorf("write %s: %w", file, err)
	}
	return []byte(secret), nil
}

// keyStore returns the store's KeyStore side.
func keyStore(st lore.Store) (lore.KeyStore, error) {
	ks, ok := st.(lore.KeyStore)
	if !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "this graph store cannot hold API keys")
	}
	return ks, nil
}

// parseExpiry reads --expires: a duration (720h, or 30d for days) from now,
// or a time as the API accepts it (RFC 3339 or a date).
func parseExpiry(v string, now time.Time) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 {
			t := now.Add(time.Duration(n) * 24 * time.Hour).UTC()
			return &t, nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil {
		if d <= 0 {
			return nil, lore.Errorf(lore.EINVALID, "--expires must be in the future")
		}
		t := now.Add(d).UTC()
		return &t, nil
	}
	t, err := lore.ParseTime("--expires", v)
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "--expires must be a duration (720h, 30d) or a time (2025-01-31, RFC 3339), got %q", v)
	}
	if !t.After(now) {
		return nil, lore.Errorf(lore.EINVALID, "--expires %s is in the past", v)
	}
	return t, nil
}

const keysUsage = `Usage: lore keys <create|list|revoke> [flags]

  create --tenant T [--role R] [--user U | --agent A] [--admin] [--expires 720h|30d|2025-01-31]
         prints the new key once; only a keyed hash of it is stored
  list   [--tenant T]   every key (of one tenant), revoked ones included
  revoke ID             the key stops working at once
  new-master            print a fresh master key for encryption at rest (store it outside the data directory)
  rotate-master --new-key-file FILE   re-wrap every tenant's data key under a new master key
  reseal --tenant T     seal the names a tenant stored in the clear before names were sealed
`

func (m *Main) keys(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, keysUsage)
		return errUsage
	}
	switch args[0] {
	case "create":
		return m.keysCreate(ctx, args[1:])
	case "list":
		return m.keysList(ctx, args[1:])
	case "revoke":
		return m.keysRevoke(ctx, args[1:])
	case "rotate-master":
		return m.keysRotateMaster(ctx, args[1:])
	case "reseal":
		return m.keysReseal(ctx, args[1:])
	case "new-master":
		return m.newMasterKey()
	case "help", "-h", "--help":
		fmt.Fprint(m.Stdout, keysUsage)
		return nil
	}
	fmt.Fprintf(m.Stderr, "lore keys: unknown command %q\n\n%s", args[0], keysUsage)
	return errUsage
}

// openKeys opens the graph store and the key secret for a keys command.
func (m *Main) openKeys(ctx context.Context, cfg backendConfig) (lore.Store, lore.KeyStore, []byte, error) {
	secret, err := m.keySecret(cfg.DataDir)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := openGraph(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	m.closers = append(m.closers, st)
	ks, err := keyStore(st)
	return st, ks, secret, err
}

func (m *Main) keysCreate(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("keys create", "--tenant T [--role R] [--user U | --agent A] [--admin] [--expires DURATION|TIME]")
	cfg.register(fs, e)
	tenant := fs.String("tenant", e.str("LORE_TENANT", lore.DefaultTenant), "the tenant the key is for (env LORE_TENANT)")
	role := fs.String("role", "", "a role name recorded with the key")
	user := fs.String("user", "", "pin the key to this user")
	agent := fs.String("agent", "", "pin the key to this agent")
	admin := fs.Bool("admin", false, "the key may manage the tenant's keys over the API")
	expires := fs.String("expires", "", "when the key stops working: a duration (720h, 30d) or a time")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	now := time.Now()
	exp, err := parseExpiry(*expires, now)
	if err != nil {
		return err
	}
	st, ks, secret, err := m.openKeys(ctx, cfg)
	if err != nil {
		return err
	}
	k := &lore.APIKey{TenantID: *tenant, Role: *role, UserID: *user, AgentID: *agent, Admin: *admin, ExpiresAt: exp}
	token, err := api.NewKey(ctx, ks, secret, k)
	if err != nil {
		return err
	}
	var pin *lore.Scope
	if k.UserID != "" || k.AgentID != "" {
		pin = &lore.Scope{TenantID: k.TenantID, UserID: k.UserID, AgentID: k.AgentID}
	}
	if err := m.recordCLI(ctx, cfg.DataDir, st, audit.Event{TenantID: k.TenantID, Action: lore.AuditKeyCreate, Target: k.ID, Scope: pin,
		Detail: map[string]string{"admin": strconv.FormatBool(k.Admin)}}); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, map[string]any{"key": token, "record": k})
	}
	fmt.Fprintf(m.Stdout, "%s\n", token)
	fmt.Fprintf(m.Stderr, "created key %s for tenant %q; it is shown only now: store it safely\n", k.ID, k.TenantID)
	return nil
}

func (m *Main) keysList(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("keys list", "[--tenant T]")
	cfg.register(fs, e)
	tenant := fs.String("tenant", "", "list only this tenant's keys")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	_, ks, _, err := m.openKeys(ctx, cfg)
	if err != nil {
		return err
	}
	keys, err := ks.ListKeys(ctx, *tenant)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, keys)
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTENANT\tROLE\tPIN\tADMIN\tCREATED\tEXPIRES\tSTATUS")
	now := time.Now()
	for _, k := range keys {
		pin := "-"
		if k.UserID != "" {
			pin = "user:" + k.UserID
		} else if k.AgentID != "" {
			pin = "agent:" + k.AgentID
		}
		status := "active"
		switch {
		case k.RevokedAt != nil:
			status = "revoked " + k.RevokedAt.Format(time.RFC3339)
		case !k.Usable(now):
			status = "expired"
		}
		exp := "-"
		if k.ExpiresAt != nil {
			exp = k.ExpiresAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%t\t%s\t%s\t%s\n", k.ID, k.TenantID, dash(k.Role), pin, k.Admin,
			k.CreatedAt.Format(time.RFC3339), exp, status)
	}
	return tw.Flush()
}

// dash shows an empty field as "-".
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (m *Main) keysRevoke(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("keys revoke", "ID")
	cfg.register(fs, e)
	asJSON := fs.Bool("json", false, "print JSON")
	// The id may come before the flags too: lore keys revoke ID --data-dir D.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if id == "" && fs.NArg() == 1 {
		id = fs.Arg(0)
	} else if id == "" || fs.NArg() != 0 {
		fmt.Fprintln(m.Stderr, "lore keys revoke: give exactly one key id")
		return errUsage
	}
	st, ks, _, err := m.openKeys(ctx, cfg)
	if err != nil {
		return err
	}
	k, err := ks.RevokeKey(ctx, "", id, time.Now())
	if err != nil {
		return err
	}
	if err := m.recordCLI(ctx, cfg.DataDir, st, audit.Event{TenantID: k.TenantID, Action: lore.AuditKeyRevoke, Target: k.ID}); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, k)
	}
	fmt.Fprintf(m.Stdout, "revoked key %s of tenant %q\n", k.ID, k.TenantID)
	return nil
}
