package api

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
)

// downIndex fails every write while down is set, as an index that went away.
type downIndex struct {
	lore.Index
	down *atomic.Bool
}

func (x downIndex) fail() error {
	if x.down.Load() {
		return lore.Errorf(lore.EUNAVAILABLE, "the index is down (test)")
	}
	return nil
}

func (x downIndex) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	if err := x.fail(); err != nil {
		return err
	}
	return x.Index.Upsert(ctx, docs)
}

func (x downIndex) Delete(ctx context.Context, sc lore.Scope, ids []string) error {
	if err := x.fail(); err != nil {
		return err
	}
	return x.Index.Delete(ctx, sc, ids)
}

// TestEditsWithTheIndexDown: with the index down, an update and a delete
// answer 200 (the store committed them and recorded the index changes in
// its outbox), search shows neither the deleted memory nor the old text,
// and once the index is back the outbox worker brings it in line: the
// doctor finds no difference.
func TestEditsWithTheIndexDown(t *testing.T) {
	e := newEnv(t)
	keep := e.addSync("alice", "I live in Paris.").EpisodeIDs[0]
	gone := e.addSync("alice", "Remember the blue door code 4411.").EpisodeIDs[0]
	real := e.srv.Index
	var down atomic.Bool
	e.srv.Index = downIndex{Index: real, down: &down}
	e.svc.Index = e.srv.Index
	down.Store(true)

	e.must(http.StatusOK, "PUT", "/v1/memories/"+keep+"?user_id=alice", map[string]any{"memory": "I live in Lisbon with my cat Tom."})
	e.must(http.StatusOK, "DELETE", "/v1/memories/"+gone+"?user_id=alice", nil)
	n, err := e.store.PendingOutbox(context.Background(), lore.DefaultTenant)
	if err != nil || n == 0 {
		t.Fatalf("pending outbox entries = %d, %v; want some", n, err)
	}
	resp := decode[retrieve.Response](t, e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"query": "blue door code", "user_id": "alice"}))
	for _, r := range resp.Results {
		if r.ID == gone {
			t.Fatalf("search shows the deleted memory while its index document is still there")
		}
	}

	down.Store(false)
	w := &ingest.OutboxWorker{Service: e.svc, Outbox: e.store}
	if _, err := w.Drain(context.Background(), time.Now().Add(lore.OutboxGrace+time.Minute)); err != nil {
		t.Fatalf("drain: %v", err)
	}
	doctor := &ingest.Service{Store: e.store, Index: real}
	rep, err := doctor.Doctor(context.Background(), lore.Scope{TenantID: lore.DefaultTenant, UserID: "alice"}, ingest.DoctorOptions{})
	if err != nil || len(rep.Differences) != 0 {
		t.Fatalf("doctor after the drain: %+v, %v; want no difference", rep, err)
	}
	hits, err := real.SearchText(context.Background(), lore.IndexQuery{Scope: lore.Scope{TenantID: lore.DefaultTenant, UserID: "alice"}, Text: "Lisbon", Limit: 5})
	if err != nil || len(hits) == 0 || hits[0].ID != keep {
		t.Fatalf("index search for the new text = %v, %v; want the updated episode", hits, err)
	}
}
