package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/graph/sqlite"
)

// registerCrypt adds the encryption-at-rest setting: a master key from a
// file (--master-key-file, LORE_MASTER_KEY_FILE) or the environment
// (LORE_MASTER_KEY), never a flag's value. Without one, nothing is
// encrypted.
func (c *backendConfig) registerCrypt(fs *flag.FlagSet, e *env) {
	fs.StringVar(&c.MasterKeyFile, "master-key-file", e.str("LORE_MASTER_KEY_FILE", ""),
		"file holding the master key (64 hex digits) that turns encryption at rest on (env LORE_MASTER_KEY_FILE, or the key itself in LORE_MASTER_KEY)")
	c.MasterKey = e.str("LORE_MASTER_KEY", "")
}

// masterKey returns the configured master key, or nil when encryption is
// off.
func (c *backendConfig) masterKey() ([]byte, error) {
	switch {
	case c.MasterKey != "" && c.MasterKeyFile != "":
		return nil, lore.Errorf(lore.EINVALID, "set LORE_MASTER_KEY or --master-key-file, not both")
	case c.MasterKeyFile != "":
		raw, err := os.ReadFile(c.MasterKeyFile)
		if err != nil {
			return nil, fmt.Errorf("read master key: %w", err)
		}
		return crypt.ParseMasterKey(string(raw))
	case c.MasterKey != "":
		return crypt.ParseMasterKey(c.MasterKey)
	}
	return nil, nil
}

// encrypt wraps the store and the index with encryption at rest when a
// master key is configured.
func (b *backends) encrypt(cfg backendConfig) error {
	key, err := cfg.masterKey()
	if err != nil || key == nil {
		return err
	}
	kr, err := crypt.NewKeyring(b.Store, key)
	if err != nil {
		return err
	}
	idx := crypt.NewIndex(b.Index, kr)
	if cfg.Index == "embedded" {
		idx.QueryWords = sqlite.QueryWords
	}
	b.Store, b.Index = crypt.NewStore(b.Store, kr), idx
	// The LLM's reply cache holds what users said, extracted: sealed too.
	if b.LLM != nil {
		if mc, ok := b.LLM.Cache().(*llm.MetaCache); ok {
			mc.SealWith(kr)
		}
	}
	return nil
}

const rotateUsage = `lore keys rotate-master --new-key-file FILE [--master-key-file OLD | LORE_MASTER_KEY=OLD]
  re-wraps every tenant's data key under the new master key; no data is re-encrypted.
  Stop the servers first, then start them with the new key.`

// keysRotateMaster re-wraps every tenant's data key under a new master key.
func (m *Main) keysRotateMaster(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("keys rotate-master", "--new-key-file FILE")
	cfg.register(fs, e)
	newFile := fs.String("new-key-file", "", "file holding the new master key (64 hex digits)")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	old, err := cfg.masterKey()
	if err != nil {
		return err
	}
	if old == nil || *newFile == "" {
		fmt.Fprintln(m.Stderr, rotateUsage)
		return errUsage
	}
	raw, err := os.ReadFile(*newFile)
	if err != nil {
		return fmt.Errorf("read new master key: %w", err)
	}
	next, err := crypt.ParseMasterKey(string(raw))
	if err != nil {
		return err
	}
	st, err := openGraph(ctx, cfg)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, st)
	n, err := crypt.RotateMaster(ctx, st, old, next)
	if err != nil {
		return errors.Join(err, fmt.Errorf("%d data keys were re-wrapped before the failure; run the rotation again with the same keys", n))
	}
	if err := m.recordCLI(ctx, cfg.DataDir, st, audit.Event{TenantID: "", Action: lore.AuditRotateMaster,
		Detail: map[string]string{"data_keys": fmt.Sprint(n)}}); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "re-wrapped %d data keys under the new master key; start the servers with it\n", n)
	return nil
}

// newMasterKey prints a fresh master key.
func (m *Main) newMasterKey() error {
	k, err := crypt.NewMasterKey()
	if err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout, strings.TrimSpace(k))
	return nil
}
