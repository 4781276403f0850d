package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
	"github.com/lore-memory/lore/crypt"
)

const resealUsage = `lore keys reseal --tenant T [--master-key-file F | LORE_MASTER_KEY=K]
  seals in place the entity names and aliases, fact subjects and objects and speakers that tenant T stored in the
  clear before names were sealed; sealed ones are left alone, so it can run again. Stop the servers first (or
  restart them after).`

// keysReseal seals a tenant's names written in the clear (crypt.ResealNames).
func (m *Main) keysReseal(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	fs := m.flagSet("keys reseal", "--tenant T")
	cfg.register(fs, e)
	tenant := fs.String("tenant", "", "the tenant whose names to seal")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	key, err := cfg.masterKey()
	if err != nil {
		return err
	}
	if key == nil || *tenant == "" {
		fmt.Fprintln(m.Stderr, resealUsage)
		return errUsage
	}
	st, err := openGraph(ctx, cfg)
	if err != nil {
		return err
	}
	m.closers = append(m.closers, st)
	kr, err := crypt.NewKeyring(st, key)
	if err != nil {
		return err
	}
	n, err := crypt.NewStore(st, kr).ResealNames(ctx, *tenant)
	if err != nil {
		return errors.Join(err, fmt.Errorf("%d names were sealed before the failure; run it again", n))
	}
	if err := m.recordCLI(ctx, cfg.DataDir, st, audit.Event{TenantID: *tenant, Action: lore.AuditReseal,
		Detail: map[string]string{"names": fmt.Sprint(n)}}); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "sealed %d names of tenant %s\n", n, *tenant)
	return nil
}
