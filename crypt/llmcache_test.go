package crypt_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/extract/llm"
)

// TestLLMCacheSealed: with the keyring as its sealer, the durable LLM reply
// cache (llmcache:* settings) keeps no reply in the clear in the database
// file or its WAL, reads its replies back, skips keys that name no tenant,
// and the erase's Forget removes the user's replies.
func TestLLMCacheSealed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, _, raw := open(t, dir, master(t))
	kr, err := crypt.NewKeyring(raw, master(t))
	if err != nil {
		t.Fatal(err)
	}
	cache := llm.NewMetaCache(raw)
	cache.SealWith(kr)
	const reply = `{"facts":[{"text":"alice follows a quokkadiet and works as a zebrafirmware engineer"}]}`
	key := "@acme/alice//0f3a9c" // scope, then the request's hash (as the extractor makes them)
	if err := cache.Put(ctx, key, reply); err != nil {
		t.Fatalf("Put: %v", err)
	}
	if got, ok, err := cache.Get(ctx, key); err != nil || !ok || got != reply {
		t.Fatalf("Get = %q, %v, %v; want the reply in the clear", got, ok, err)
	}
	stored, err := raw.GetMeta(ctx, llm.MetaCachePrefix+key)
	if err != nil || stored == reply || !bytes.HasPrefix([]byte(stored), []byte(crypt.Prefix)) {
		t.Fatalf("stored value %q, %v; want it sealed", stored, err)
	}
	// A key that names no tenant (made before keys named their scope) has
	// no data key to seal under: it is not stored.
	if err := cache.Put(ctx, "0123abcd", reply); err != nil {
		t.Fatalf("Put(legacy key): %v", err)
	}
	if _, err := raw.GetMeta(ctx, llm.MetaCachePrefix+"0123abcd"); err == nil {
		t.Errorf("a reply under a key without a tenant was stored, want it skipped while sealing")
	}
	// An erase of alice forgets her replies (llm.Extractor.Forget).
	if err := cache.Forget(ctx, "@acme/alice/"); err != nil {
		t.Fatalf("Forget: %v", err)
	}
	if _, ok, err := cache.Get(ctx, key); err != nil || ok {
		t.Errorf("Get after Forget: found=%v, %v; want the reply gone", ok, err)
	}
	if err := raw.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		for _, secret := range []string{"quokkadiet", "zebrafirmware"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %q in the clear", name, secret)
			}
		}
	}
}
