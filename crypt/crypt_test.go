package crypt_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/storetest"
)

func master(t testing.TB) []byte {
	t.Helper()
	k, err := crypt.NewMasterKey()
	if err != nil {
		t.Fatal(err)
	}
	b, err := crypt.ParseMasterKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// open opens a sqlite store in dir wrapped with encryption under key.
func open(t testing.TB, dir string, key []byte) (*crypt.Store, *crypt.Index, *sqlite.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	idx := st.Index()
	t.Cleanup(func() { idx.Close(); st.Close() })
	kr, err := crypt.NewKeyring(st, key)
	if err != nil {
		t.Fatal(err)
	}
	x := crypt.NewIndex(idx, kr)
	x.QueryWords = sqlite.QueryWords
	return crypt.NewStore(st, kr), x, st
}

// The conformance suites pass through the encryption layer unchanged.
func TestStoreConformance(t *testing.T) {
	key := master(t)
	storetest.RunStore(t, "sqlite+crypt", func(tb testing.TB) lore.Store {
		s, _, _ := open(tb, tb.TempDir(), key)
		return s
	})
}

func TestIndexConformance(t *testing.T) {
	key := master(t)
	storetest.RunIndex(t, "sqlite+crypt", func(tb testing.TB) lore.Index {
		_, x, _ := open(tb, tb.TempDir(), key)
		return x
	})
}

// TestNothingInTheClear: what a user said, their metadata and the facts'
// sentences are not in the database file or its WAL, BM25 still finds them
// by word, and the memories read back in the clear. A rotated master key
// reads them; the old one no longer does. Erasing the tenant drops its key.
func TestNothingInTheClear(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	key := master(t)
	st, idx, raw := open(t, dir, key)
	svc := &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	const marker = "quokkamarker"
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: false,
		Messages: []ingest.Message{{Role: "user", Content: "my locker combination is " + marker + " 4711", Metadata: map[string]any{"note": "metamarker"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true,
		Messages: []ingest.Message{{Role: "user", Content: "I love hiking with my dog."}}}); err != nil {
		t.Fatal(err)
	}
	hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: "locker " + marker, Limit: 5})
	if err != nil || len(hits) == 0 {
		t.Fatalf("SearchText through the blind index: %v, %v; want the memory", hits, err)
	}
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	if err != nil || len(eps) != 2 || eps[0].Content != "my locker combination is "+marker+" 4711" || eps[0].Metadata["note"] != "metamarker" {
		t.Fatalf("FindEpisodes=%+v, %v; want the text and metadata in the clear", eps, err)
	}
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil || len(facts) == 0 {
		t.Fatalf("no fact extracted: %v", err)
	}
	factText := facts[0].Text
	if err := raw.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		for _, secret := range []string{marker, "metamarker", "locker combination", factText, "hiking with my dog"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds %q in the clear", name, secret)
			}
		}
	}

	// Rotate the master key: the data keys are re-wrapped, nothing else.
	st2, err := sqlite.Open(ctx, filepath.Join(dir, "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	next := master(t)
	n, err := crypt.RotateMaster(ctx, st2, key, next)
	if err != nil || n != 1 {
		t.Fatalf("RotateMaster=%d, %v; want 1 data key re-wrapped", n, err)
	}
	if n, err := crypt.RotateMaster(ctx, st2, key, next); err != nil || n != 0 {
		t.Errorf("RotateMaster again=%d, %v; want 0 (already done)", n, err)
	}
	kr, _ := crypt.NewKeyring(st2, next)
	eps, err = crypt.NewStore(st2, kr).FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
	if err != nil || len(eps) != 2 || eps[0].Content != "my locker combination is "+marker+" 4711" {
		t.Errorf("after the rotation, FindEpisodes=%v, %v; want the text under the new master key", eps, err)
	}
	old, _ := crypt.NewKeyring(st2, key)
	if _, err := crypt.NewStore(st2, old).FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc}); lore.ErrorCode(err) != lore.EUNAVAILABLE {
		t.Errorf("the old master key after the rotation: err=%v, want unavailable", err)
	}

	// Erasing the tenant drops its data key.
	if _, err := crypt.NewStore(st2, kr).DeleteScope(ctx, lore.Scope{TenantID: "acme"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st2.GetMeta(ctx, "crypt.dek:acme"); lore.ErrorCode(err) != lore.ENOTFOUND {
		t.Errorf("the tenant's data key after its erase: err=%v, want gone", err)
	}
}

func TestParseMasterKey(t *testing.T) {
	for _, bad := range []string{"", "short", "zz" + string(make([]byte, 62))} {
		if _, err := crypt.ParseMasterKey(bad); lore.ErrorCode(err) != lore.EINVALID {
			t.Errorf("ParseMasterKey(%q): err=%v, want invalid", bad, err)
		}
	}
	if _, err := crypt.ParseMasterKey("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="); err != nil {
		t.Errorf("base64 key: %v", err)
	}
}

// TestBlindIndexRanksAsThePlainOne: the same documents indexed plain and
// through the blind index give the same hits, in the same order, with the
// same BM25 scores: hashing terms one to one changes no statistic.
func TestBlindIndexRanksAsThePlainOne(t *testing.T) {
	ctx := context.Background()
	plainStore, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	plain := plainStore.Index()
	t.Cleanup(func() { plain.Close(); plainStore.Close() })
	_, blind, _ := open(t, t.TempDir(), master(t))
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	var docs []lore.IndexDoc
	for i, text := range []string{
		"I moved to Lisbon last spring with my partner Ana.", "My sister Emma works as an architect in Rome.",
		"I started a new job at Stripe on Monday.", "We adopted a beagle called Pepper.", "I have been vegetarian for five years.",
		"Emma's husband Marco cooks the best risotto in Rome.", "The dinners at the café were lovely.", "Running every morning helps.",
	} {
		docs = append(docs, lore.IndexDoc{ID: fmt.Sprintf("d%d", i), Kind: lore.KindEpisode, Scope: sc, Text: text, Time: time.Unix(int64(i), 0)})
	}
	for _, x := range []lore.Index{plain, blind} {
		if err := x.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"where does my sister work?", "Rome", "dinner at a cafe", "runs", "what did I adopt", "the"} {
		want, err := plain.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got, err := blind.SearchText(ctx, lore.IndexQuery{Scope: sc, Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d blind hits, %d plain", q, len(got), len(want))
		}
		for i := range want {
			if got[i].ID != want[i].ID || math.Abs(got[i].Score-want[i].Score) > 1e-9 {
				t.Errorf("%q hit %d: blind %s %.6f, plain %s %.6f", q, i, got[i].ID, got[i].Score, want[i].ID, want[i].Score)
			}
		}
	}
}

// TestTwoProcessesAgreeOnADataKey: two keyrings (as two processes) sealing
// a new tenant's first value at once end up with one data key: each opens
// what the other sealed.
func TestTwoProcessesAgreeOnADataKey(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key := master(t)
	a, _ := crypt.NewKeyring(st, key)
	b, _ := crypt.NewKeyring(st, key)
	done := make(chan string, 2)
	for _, kr := range []*crypt.Keyring{a, b} {
		go func() {
			v, err := kr.Seal(ctx, "acme", "hello")
			if err != nil {
				t.Error(err)
			}
			done <- v
		}()
	}
	v1, v2 := <-done, <-done
	for _, c := range []struct {
		kr *crypt.Keyring
		v  string
	}{{a, v1}, {a, v2}, {b, v1}, {b, v2}} {
		if got, err := c.kr.Open(ctx, "acme", c.v); err != nil || got != "hello" {
			t.Errorf("Open=%q, %v; want both keyrings to read both values", got, err)
		}
	}
}
