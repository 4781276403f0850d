package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/client"
)

// remoteFlags make a data command talk to a running server through the
// client package instead of opening the data directory.
type remoteFlags struct {
	Server string
}

func (r *remoteFlags) register(fs *flag.FlagSet, e *env) {
	fs.StringVar(&r.Server, "server", e.str("LORE_SERVER", ""), "a Lore server's URL: call its HTTP API instead of opening the data directory; the key comes from LORE_API_KEY (env LORE_SERVER)")
}

// client returns the server's client. The key fixes the tenant; without
// one the tenant flag is sent as X-Lore-Tenant.
func (m *Main) client(r remoteFlags, tenant string) *client.Client {
	opts := []client.Option{}
	if key := m.getenv("LORE_API_KEY"); key != "" {
		opts = append(opts, client.WithAPIKey(key))
	} else if tenant != "" {
		opts = append(opts, client.WithTenant(tenant))
	}
	return client.New(r.Server, opts...)
}

// addRemote is `lore add --server`.
func (m *Main) addRemote(ctx context.Context, r remoteFlags, sc lore.Scope, msg client.Message, infer, sync, asJSON bool) error {
	res, err := m.client(r, sc.TenantID).Add(ctx, client.AddRequest{
		Messages: []client.Message{msg}, UserID: sc.UserID, AgentID: sc.AgentID, RunID: sc.RunID, Infer: &infer, Sync: sync,
	})
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(m.Stdout, res)
	}
	fmt.Fprintf(m.Stdout, "stored episode %s\n", strings.Join(res.EpisodeIDs, ", "))
	if res.JobID != "" {
		fmt.Fprintf(m.Stdout, "extraction queued as job %s on %s\n", res.JobID, r.Server)
	}
	printEvents(m.Stdout, res.Results)
	return nil
}

// searchRemote is `lore search --server`.
func (m *Main) searchRemote(ctx context.Context, r remoteFlags, sc lore.Scope, req client.SearchRequest, explain, asJSON bool) error {
	req.UserID, req.AgentID, req.RunID = sc.UserID, sc.AgentID, sc.RunID
	resp, err := m.client(r, sc.TenantID).Search(ctx, req)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(m.Stdout, resp)
	}
	printResults(m.Stdout, resp, explain)
	return nil
}
