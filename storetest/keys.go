package storetest

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// RunKeys runs the conformance suite for lore.KeyStore against one backend.
// open is called once; it returns a ready store and registers its own
// cleanup. Every subtest works in its own tenant. Keys are never deleted (a
// revoked key stays on record), so the keys a run creates remain, revoked.
func RunKeys(t *testing.T, backend string, open func(testing.TB) lore.KeyStore) {
	t.Helper()
	ks := open(t)
	s := suite{t: t, backend: backend}

	newKey := func(t *testing.T, k lore.APIKey) *lore.APIKey {
		t.Helper()
		token, err := lore.NewKeyToken()
		must(t, "NewKeyToken", err)
		k.Hash = lore.KeyHash([]byte("test secret"), token)
		must(t, "CreateKey", ks.CreateKey(ctxFor(t), &k))
		t.Cleanup(func() { _, _ = ks.RevokeKey(ctxFor(t), "", k.ID, time.Now()) })
		return &k
	}

	s.run("Keys/CreateAndFindByHash", func(t *testing.T) {
		ctx := ctxFor(t)
		exp := baseTime.Add(24 * time.Hour)
		k := newKey(t, lore.APIKey{TenantID: newTenant(), Role: "reader", UserID: "alice", ExpiresAt: &exp})
		if k.ID == "" || k.CreatedAt.IsZero() {
			t.Fatalf("CreateKey left ID=%q CreatedAt=%v, want both set", k.ID, k.CreatedAt)
		}
		got, err := ks.KeyByHash(ctx, k.Hash)
		must(t, "KeyByHash", err)
		if got.ID != k.ID || got.TenantID != k.TenantID || got.Role != "reader" || got.UserID != "alice" || got.AgentID != "" || got.Admin {
			t.Errorf("KeyByHash=%+v, want %+v", got, k)
		}
		if got.Hash != k.Hash {
			t.Errorf("Hash=%q, want %q", got.Hash, k.Hash)
		}
		sameTime(t, "CreatedAt", got.CreatedAt, k.CreatedAt)
		if got.ExpiresAt == nil {
			t.Fatalf("ExpiresAt=nil, want %v", exp)
		}
		sameTime(t, "ExpiresAt", *got.ExpiresAt, exp)
		if got.RevokedAt != nil {
			t.Errorf("RevokedAt=%v, want nil", got.RevokedAt)
		}
		has, err := ks.HasKeys(ctx)
		must(t, "HasKeys", err)
		if !has {
			t.Errorf("HasKeys=false after CreateKey, want true")
		}
		_, err = ks.KeyByHash(ctx, lore.KeyHash([]byte("test secret"), "lore_nothing"))
		wantCode(t, "KeyByHash(unknown)", err, lore.ENOTFOUND)
	})

	s.run("Keys/DuplicateHashConflicts", func(t *testing.T) {
		k := newKey(t, lore.APIKey{TenantID: newTenant()})
		dup := lore.APIKey{TenantID: k.TenantID, Hash: k.Hash}
		wantCode(t, "CreateKey(same hash)", ks.CreateKey(ctxFor(t), &dup), lore.ECONFLICT)
	})

	s.run("Keys/RejectsInvalid", func(t *testing.T) {
		ctx := ctxFor(t)
		hash := lore.KeyHash([]byte("s"), "t")
		for _, k := range []lore.APIKey{
			{Hash: hash},
			{TenantID: newTenant(), UserID: "u", AgentID: "a", Hash: hash},
			{TenantID: newTenant(), Hash: "plaintext"},
		} {
			wantCode(t, "CreateKey", ks.CreateKey(ctx, &k), lore.EINVALID)
		}
	})

	s.run("Keys/ListPerTenant", func(t *testing.T) {
		ctx := ctxFor(t)
		tenant := newTenant()
		a := newKey(t, lore.APIKey{TenantID: tenant, Admin: true, CreatedAt: at(1)})
		b := newKey(t, lore.APIKey{TenantID: tenant, AgentID: "bot", CreatedAt: at(2)})
		other := newKey(t, lore.APIKey{TenantID: newTenant()})
		got, err := ks.ListKeys(ctx, tenant)
		must(t, "ListKeys", err)
		sameList(t, "ListKeys ids", keyIDs(got), []string{a.ID, b.ID})
		if len(got) == 2 && (!got[0].Admin || got[1].AgentID != "bot") {
			t.Errorf("ListKeys=%+v %+v, want the admin key then the agent key", got[0], got[1])
		}
		all, err := ks.ListKeys(ctx, "")
		must(t, "ListKeys(all)", err)
		for _, id := range []string{a.ID, b.ID, other.ID} {
			if !containsID(keyIDs(all), id) {
				t.Errorf("ListKeys(\"\") lacks %s", id)
			}
		}
		none, err := ks.ListKeys(ctx, newTenant())
		must(t, "ListKeys(empty tenant)", err)
		if len(none) != 0 {
			t.Errorf("ListKeys(new tenant)=%d keys, want 0", len(none))
		}
	})

	s.run("Keys/RevokeKeepsFirstTimeAndTenant", func(t *testing.T) {
		ctx := ctxFor(t)
		k := newKey(t, lore.APIKey{TenantID: newTenant()})
		_, err := ks.RevokeKey(ctx, newTenant(), k.ID, at(3))
		wantCode(t, "RevokeKey(other tenant)", err, lore.ENOTFOUND)
		_, err = ks.RevokeKey(ctx, k.TenantID, "no-such-key", at(3))
		wantCode(t, "RevokeKey(unknown)", err, lore.ENOTFOUND)
		got, err := ks.RevokeKey(ctx, k.TenantID, k.ID, at(3))
		must(t, "RevokeKey", err)
		if got.RevokedAt == nil {
			t.Fatalf("RevokedAt=nil after RevokeKey")
		}
		sameTime(t, "RevokedAt", *got.RevokedAt, at(3))
		again, err := ks.RevokeKey(ctx, "", k.ID, at(5))
		must(t, "RevokeKey again", err)
		sameTime(t, "RevokedAt after a second revoke", *again.RevokedAt, at(3))
		found, err := ks.KeyByHash(ctx, k.Hash)
		must(t, "KeyByHash(revoked)", err)
		if found.Usable(at(4)) {
			t.Errorf("revoked key Usable=true, want false")
		}
	})
}

// keyIDs returns the ids of keys in order.
func keyIDs(keys []*lore.APIKey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.ID
	}
	return out
}

// containsID reports whether ids holds id.
func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
