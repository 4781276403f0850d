package crypt_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/crypt"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/index/terms"
	"github.com/lore-memory/lore/index/weaviate"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/storetest"
)

// TestEraseMarkerScanNeo4jWeaviate writes unique markers in a user's
// memories on Neo4j + Weaviate with encryption at rest on (in content,
// metadata, a speaker's name, an entity's name and a fact's object),
// erases the user, checkpoints Neo4j, and scans every raw file of both
// servers' data directories (store files, transaction logs, Weaviate's
// segments and write-ahead logs) for the markers: none may be there in
// the clear, and neither may the sentence of a fact drawn from the user's
// words. As a
// control, the scan must find the sealed form of the memory in Neo4j's
// files and its blind tokens in Weaviate's, so the data did reach the disk
// and the scan reads the right files.
//
// The data directories are those of scripts/neo4j/start.sh and
// scripts/weaviate/start.sh under $LORE_STATE_DIR (or
// LORE_TEST_NEO4J_DATA_DIR and LORE_TEST_WEAVIATE_DATA_DIR), so the test
// must run on the servers' machine. With LORE_MARKER_SCAN_PLAIN=report it
// also runs without encryption and logs where the markers stay after the
// erase (README: what Neo4j and Weaviate keep), asserting nothing of it.
func TestEraseMarkerScanNeo4jWeaviate(t *testing.T) {
	neoURL := storetest.ServerURL(t, "LORE_TEST_NEO4J_URL", "start a server with `scripts/neo4j/start.sh` and export the LORE_TEST_NEO4J_URL it prints")
	weavURL := storetest.ServerURL(t, "LORE_TEST_WEAVIATE_URL", "start a server with `scripts/weaviate/start.sh` and export the LORE_TEST_WEAVIATE_URL it prints")
	neoDir := dataDir(t, "LORE_TEST_NEO4J_DATA_DIR", "neo4j")
	weavDir := dataDir(t, "LORE_TEST_WEAVIATE_DATA_DIR", "weaviate")
	t.Run("encrypted", func(t *testing.T) {
		found := markerScan(t, neoURL, weavURL, neoDir, weavDir, true)
		for secret, files := range found {
			t.Errorf("%q is in the clear after the erase in %s", secret, strings.Join(files, ", "))
		}
	})
	if os.Getenv("LORE_MARKER_SCAN_PLAIN") == "report" {
		t.Run("plain", func(t *testing.T) {
			found := markerScan(t, neoURL, weavURL, neoDir, weavDir, false)
			if len(found) == 0 {
				t.Logf("without encryption: no marker left in either data directory after the erase")
			}
			for secret, files := range found {
				t.Logf("without encryption: %q stays after the erase in %s", secret, strings.Join(files, ", "))
			}
		})
	}
}

// dataDir returns the server's data directory from env, else from
// $LORE_STATE_DIR/<name>/data as the start scripts lay it out. It skips
// (fails under CI=true) when there is none.
func dataDir(t *testing.T, env, name string) string {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		dir = filepath.Join(cmpOr(os.Getenv("LORE_STATE_DIR"), "/tmp/lore-services"), name, "data")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		msg := name + " data directory " + dir + " not found: run the test beside a server started by scripts/" + name + "/start.sh (same LORE_STATE_DIR), or set " + env
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// markerScan stores a user's memories holding fresh markers, erases the
// user and returns, for each secret left in the clear, the files holding
// it. With encryption it first checks the controls (sealed and blind forms
// on disk).
func markerScan(t *testing.T, neoURL, weavURL, neoDir, weavDir string, encrypted bool) map[string][]string {
	ctx := context.Background()
	neo, err := neo4j.Open(ctx, neo4j.Config{URL: neoURL, Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("neo4j.Open: %v", err)
	}
	t.Cleanup(func() { neo.Close() })
	weav, err := weaviate.Open(ctx, weaviate.Config{URL: weavURL})
	if err != nil {
		t.Fatalf("weaviate.Open: %v", err)
	}
	t.Cleanup(func() { weav.Close() })
	var (
		st  lore.Store = neo
		idx lore.Index = weav
		kr  *crypt.Keyring
	)
	if encrypted {
		if kr, err = crypt.NewKeyring(neo, master(t)); err != nil {
			t.Fatal(err)
		}
		st, idx = crypt.NewStore(neo, kr), crypt.NewIndex(weav, kr)
	}
	svc := &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: ingest.DefaultConfig()}
	sc := lore.Scope{TenantID: "scan-" + randomWord(8), UserID: "alice"}
	t.Cleanup(func() { svc.Erase(context.Background(), lore.Scope{TenantID: sc.TenantID}) })

	// Markers are lowercase words, one index term each, in sentences long
	// enough that Neo4j keeps them in its string store, not inline.
	content, meta, stated := "quokka"+randomWord(12), "wombat"+randomWord(12), "numbat"+randomWord(12)
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: false, Messages: []ingest.Message{{Role: "user",
		Content:  "my locker combination is " + content + " and the spare key hangs behind the boiler",
		Metadata: map[string]any{"note": "the note says " + meta + " in green ink on the back"}}}}); err != nil {
		t.Fatalf("Add(verbatim): %v", err)
	}
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{{Role: "user",
		Content: "I love hiking with my dog every weekend in the hills near " + stated + " village."}}}); err != nil {
		t.Fatalf("Add(extracted): %v", err)
	}
	// A person named with a marker, living in a place named with one: an
	// entity's name and a fact's object (and a speaker's name).
	person, place, speaker := "Zelda"+randomWord(12), "Quoll"+randomWord(12), "Dunnart"+randomWord(12)
	if _, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true, Sync: true, Messages: []ingest.Message{{Role: "user", Name: speaker,
		Content: "My sister " + person + " lives in " + place + "."}}}); err != nil {
		t.Fatalf("Add(names): %v", err)
	}
	// An index write that failed (a busy Weaviate under CI) waits in the
	// store's outbox for `lore serve`'s worker; play that worker here, so
	// the scan sees what a server would have written.
	settleOutbox(t, svc, st, sc.TenantID)
	facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: sc})
	if err != nil || len(facts) == 0 {
		t.Fatalf("FindFacts: %d facts, %v; want the extracted ones", len(facts), err)
	}
	// Only strings holding a marker: earlier runs left their own phrases
	// in the servers' files.
	secrets := []string{content, meta}
	for _, f := range facts {
		// The extractor may capitalize the marker as the name of a place
		// ("near Numbat… village"); the sentence is scanned as stored.
		if strings.Contains(strings.ToLower(f.Text), stated) {
			secrets = append(secrets, f.Text)
		}
	}
	if len(secrets) < 3 {
		t.Fatalf("no fact sentence holds the stated marker among %d facts", len(facts))
	}
	// Names: as written and as normalized (entity keys are lower case).
	// Neo4j packs a short string of lower-case letters into its property
	// record in a denser code, so a normalized name may escape a byte scan
	// even in the clear; the spellings as written do not (the plain run
	// finds them in its transaction log), and sealed names are long.
	var named bool
	for _, f := range facts {
		named = named || f.Object == place || f.Subject == person
	}
	if !named {
		t.Fatalf("no fact names %s or %s among %d facts", person, place, len(facts))
	}
	for _, n := range []string{stated, person, place, speaker} {
		secrets = append(secrets, n, strings.ToLower(n))
	}
	if encrypted {
		checkpointNeo4j(t, neoURL)
		raw, err := neo.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc})
		if err != nil || len(raw) == 0 {
			t.Fatalf("raw FindEpisodes: %v", err)
		}
		var sealed []string
		for _, ep := range raw {
			if !strings.HasPrefix(ep.Content, crypt.Prefix) {
				t.Fatalf("episode content %q is not sealed", ep.Content)
			}
			// A stretch of the ciphertext: Neo4j may split a long string
			// over records.
			sealed = append(sealed, ep.Content[len(crypt.Prefix):len(crypt.Prefix)+40])
		}
		// The index blinds each term as analyzed: Porter stems a random
		// marker that happens to end like "-es" or "-ly".
		blind, err := kr.Blind(ctx, sc.TenantID, terms.Joined(content))
		if err != nil {
			t.Fatal(err)
		}
		if got := scanDir(t, neoDir, sealed[:1]); len(got) == 0 {
			t.Fatalf("control: the sealed episode %q… is not in Neo4j's files under %s; the scan would prove nothing", sealed[0], neoDir)
		}
		if got := scanDir(t, weavDir, []string{blind}); len(got) == 0 {
			t.Fatalf("control: the blind token of the marker is not in Weaviate's files under %s; the scan would prove nothing", weavDir)
		}
	}

	if _, err := svc.Erase(ctx, sc); err != nil {
		t.Fatalf("Erase: %v", err)
	}
	settleOutbox(t, svc, st, sc.TenantID)
	checkpointNeo4j(t, neoURL)
	found := scanDir(t, neoDir, secrets)
	for secret, files := range scanDir(t, weavDir, secrets) {
		found[secret] = append(found[secret], files...)
	}
	return found
}

// settleOutbox applies the tenant's pending outbox entries to the index,
// retrying for up to a minute, and fails the test if some stay.
func settleOutbox(t *testing.T, svc *ingest.Service, st lore.Store, tenantID string) {
	t.Helper()
	ob, ok := st.(lore.Outbox)
	if !ok {
		return
	}
	ctx := context.Background()
	w := &ingest.OutboxWorker{Service: svc, Outbox: ob, TenantID: tenantID}
	deadline := time.Now().Add(time.Minute)
	for {
		// A clock an hour ahead: entries that failed are due at once.
		stats, derr := w.Drain(ctx, time.Now().Add(time.Hour))
		n, err := ob.PendingOutbox(ctx, tenantID)
		if err != nil {
			t.Fatalf("PendingOutbox: %v", err)
		}
		if stats.Applied > 0 {
			t.Logf("outbox: applied %d index changes the writes had left", stats.Applied)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("outbox: %d index changes still pending after a minute (last error: %v)", n, derr)
		}
		time.Sleep(time.Second)
	}
}

// checkpointNeo4j flushes Neo4j's page cache into its store files where
// the server offers it (db.checkpoint is an Enterprise procedure). Without
// it the scan still sees every write: Neo4j appends each commit to its
// transaction log before it answers.
func checkpointNeo4j(t *testing.T, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var auth = driver.NoAuth()
	if u := os.Getenv("LORE_TEST_NEO4J_USER"); u != "" {
		auth = driver.BasicAuth(u, os.Getenv("LORE_TEST_NEO4J_PASSWORD"), "")
	}
	d, err := driver.NewDriverWithContext(url, auth)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close(ctx)
	_, err = driver.ExecuteQuery(ctx, d, "CALL db.checkpoint()", nil, driver.EagerResultTransformer)
	var ne *driver.Neo4jError
	switch {
	case errors.As(err, &ne) && ne.Code == "Neo.ClientError.Procedure.ProcedureNotFound":
		t.Logf("no db.checkpoint on this server (Community): the scan reads the transaction log and the store files as last checkpointed")
	case err != nil:
		t.Fatalf("CALL db.checkpoint(): %v", err)
	}
}

// scanDir returns, for each needle found in a file under dir, the files
// (relative to dir) that hold it. Files are read in chunks that overlap by
// the longest needle, so no occurrence is missed at a chunk's edge.
func scanDir(t *testing.T, dir string, needles []string) map[string][]string {
	t.Helper()
	longest := 0
	for _, n := range needles {
		longest = max(longest, len(n))
	}
	found := map[string][]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) { // a file removed while walking (log rotation)
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if os.IsNotExist(err) {
			return nil
		} else if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(dir, path)
		hit := map[string]bool{}
		r := bufio.NewReaderSize(f, 1<<20)
		buf := make([]byte, 0, 1<<20+longest)
		chunk := make([]byte, 1<<20)
		for {
			n, rerr := io.ReadFull(r, chunk)
			buf = append(buf, chunk[:n]...)
			for _, nd := range needles {
				if !hit[nd] && bytes.Contains(buf, []byte(nd)) {
					hit[nd] = true
				}
			}
			if rerr != nil {
				break
			}
			keep := min(len(buf), longest)
			buf = append(buf[:0], buf[len(buf)-keep:]...)
		}
		for nd := range hit {
			found[nd] = append(found[nd], rel)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("scan %s: %v", dir, err)
	}
	for _, files := range found {
		sort.Strings(files)
	}
	return found
}

// randomWord returns n random lowercase letters.
func randomWord(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b)
}
