package scale_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/sqlite"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retrieve"
	"github.com/lore-memory/lore/storetest"
)

// TestSoak runs mixed adds, searches and deletes at fixed rates on the
// embedded store for LORE_SOAK (a duration, e.g. 2m or 30m; unset: skipped),
// with the rules extractor and the hashed embedder: 20 adds/s of two
// messages (sync extraction), 20 searches/s, and deletes of the oldest
// memories that keep 200 episodes live (LORE_SOAK_DELETE, below). It logs
// the process's resident memory and open files every LORE_SOAK_EVERY
// (default 10s) and fails on any error, on an acknowledged episode that is
// not found at the end (or one of the last 5,000 to 10,000 deleted that
// is), and on resident memory (default mode only, unless
// LORE_SOAK_GROWTH=report) or open files growing more than 10% (and more
// than the reader pool's files) from the end of the warm-up (the live set
// full, and at least a fifth of the run) to the end.
//
//	LORE_SOAK=2m go test ./bench/scale -run TestSoak -v -timeout 10m
func TestSoak(t *testing.T) {
	raw := os.Getenv("LORE_SOAK")
	if raw == "" {
		t.Skip("set LORE_SOAK to a duration (e.g. 2m) to run the soak")
	}
	total, err := time.ParseDuration(raw)
	if err != nil {
		t.Fatalf("LORE_SOAK: %v", err)
	}
	every := 10 * time.Second
	if s := os.Getenv("LORE_SOAK_EVERY"); s != "" {
		if every, err = time.ParseDuration(s); err != nil {
			t.Fatalf("LORE_SOAK_EVERY: %v", err)
		}
	}
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "lore.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	idx := st.Index()
	defer func() { _ = errors.Join(idx.Close(), st.Close()) }()
	emb := storetest.HashEmbedder{}
	svc := &ingest.Service{Store: st, Index: idx, Embedder: emb, Extractor: rules.New(), Logger: slog.New(slog.DiscardHandler)}
	pipe := &retrieve.Pipeline{Graph: st, Index: idx, Embedder: emb, Config: retrieve.DefaultConfig()}

	// The outbox worker runs as `lore serve` runs it: it applies the index
	// changes that a delete records beyond its own documents (the turn
	// after a deleted episode, facts whose sources changed).
	workerCtx, stopWorker := context.WithCancel(ctx)
	workerDone := make(chan error, 1)
	go func() { workerDone <- (&ingest.OutboxWorker{Service: svc, Outbox: st}).Run(workerCtx) }()
	defer func() {
		stopWorker()
		<-workerDone
	}()

	const users = 20
	scope := func(u int) lore.Scope { return lore.Scope{TenantID: "soak", UserID: "user-" + strconv.Itoa(u)} }
	// What the deletes remove: "all" (the default) deletes the oldest
	// memories, each episode with the facts its add created, so the stored
	// data stays the same size after warm-up and memory should too;
	// "episodes" deletes only episodes, so the facts drawn from them pile up
	// (stored data grows with time and the log reports the bytes of
	// resident memory per stored memory added).
	deleteFacts := true
	switch mode := os.Getenv("LORE_SOAK_DELETE"); mode {
	case "", "all":
	case "episodes":
		deleteFacts = false
	default:
		t.Fatalf("LORE_SOAK_DELETE=%q: want all or episodes", mode)
	}
	type memory struct {
		id    string
		kind  lore.DocKind
		scope lore.Scope
	}
	var (
		mu    sync.Mutex
		acked = map[string]lore.Scope{} // episode id → scope
		// deleted holds the last keepDeleted episodes deleted, checked
		// gone at the end; older ones leave it (the oldest of each
		// generation of keepDeleted go together) so that the soak's own
		// record does not grow with the run.
		deleted, deletedOld = map[string]lore.Scope{}, map[string]lore.Scope{}
		deletedAll          int
		order               []memory // live memories, oldest first
		facts               int      // live facts the adds created
		errs                []error
		counts              = map[string]int{}
	)
	fail := func(what string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf("%s: %w", what, err))
		}
		counts["errors"]++
	}
	cities := []string{"Paris", "Rome", "Lisbon", "Oslo", "Kyoto", "Lima", "Cairo", "Quito"}
	jobs := []string{"nurse", "pilot", "teacher", "baker", "lawyer", "painter"}

	deadline := time.Now().Add(total)
	// ticker runs fn every period until the deadline.
	var wg sync.WaitGroup
	ticker := func(period time.Duration, fn func(n int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk := time.NewTicker(period)
			defer tk.Stop()
			for n := 0; time.Now().Before(deadline); n++ {
				fn(n)
				<-tk.C
			}
		}()
	}
	ticker(50*time.Millisecond, func(n int) { // 20 adds/s, two messages each
		sc := scope(n % users)
		msgs := []ingest.Message{
			{Role: "user", Content: fmt.Sprintf("I moved to %s last week, note %d.", cities[n%len(cities)], n)},
			{Role: "user", Content: fmt.Sprintf("I work as a %s now, entry %d.", jobs[n%len(jobs)], n)},
		}
		res, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Messages: msgs, Infer: true, Sync: true})
		if err != nil {
			fail("add", err)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		counts["adds"]++
		for _, id := range res.EpisodeIDs {
			acked[id] = sc
			order = append(order, memory{id, lore.KindEpisode, sc})
		}
		for _, e := range res.Events {
			if e.Type == lore.KindFact && e.Event == lore.EventAdd {
				facts++
				if deleteFacts {
					order = append(order, memory{e.ID, lore.KindFact, sc})
				}
			}
		}
	})
	ticker(50*time.Millisecond, func(n int) { // 20 searches/s
		_, err := pipe.Search(ctx, retrieve.Request{Scope: scope(n % users), Query: "where does the user live and work?"})
		if err != nil {
			fail("search", err)
			return
		}
		mu.Lock()
		counts["searches"]++
		mu.Unlock()
	})
	// Deletes of the oldest live memories once more than liveCap episodes
	// are live. A delete goes the way the API's does
	// (api.Server.removeMemory): the store, then the index, then the
	// outbox entries the store recorded are acknowledged.
	const liveCap = 200
	const keepDeleted = 5000
	// deleteOldest deletes the oldest live memory, if the live episodes
	// are over liveCap, and reports whether it deleted one.
	deleteOldest := func() bool {
		mu.Lock()
		var m memory
		if len(acked) > liveCap && len(order) > 0 {
			m, order = order[0], order[1:]
		}
		mu.Unlock()
		if m.id == "" {
			return false
		}
		dctx := ingest.Tagged(ctx)
		docs := []string{m.id}
		if m.kind == lore.KindEpisode {
			eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: m.scope, IDs: []string{m.id}})
			if err != nil || len(eps) != 1 {
				fail("find episode to delete", fmt.Errorf("%s: %d found: %w", m.id, len(eps), err))
				return false
			}
			docs = ingest.EpisodeDocIDs(eps[0])
			if err := st.DeleteEpisode(dctx, m.scope, m.id, "soak"); err != nil {
				fail("delete episode", err)
				return false
			}
		} else {
			err := st.DeleteFact(dctx, m.scope, m.id, "soak")
			if lore.ErrorCode(err) == lore.ENOTFOUND {
				err = nil // gone already
			}
			if err != nil {
				fail("delete fact", err)
				return false
			}
		}
		if err := idx.Delete(dctx, m.scope, docs); err != nil {
			fail("delete docs", err)
			return false
		}
		if err := lore.AckIndexed(dctx, st, docs); err != nil {
			fail("acknowledge outbox", err)
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		counts["deletes"]++
		if m.kind == lore.KindEpisode {
			delete(acked, m.id)
			if len(deleted) == keepDeleted {
				deletedOld, deleted = deleted, make(map[string]lore.Scope, keepDeleted)
			}
			deleted[m.id] = m.scope
			deletedAll++
		} else {
			facts--
		}
		return true
	}
	ticker(25*time.Millisecond, func(n int) {
		// Up to four memories a tick (160/s): an add creates about four
		// (two episodes, two facts) at 20/s.
		for range 4 {
			if !deleteOldest() {
				return
			}
		}
	})

	type sample struct {
		at                    time.Duration
		rss, files            int64
		adds, found, memories int
	}
	var samples []sample
	start := time.Now()
	profDir := os.Getenv("LORE_SOAK_PROFILE")
	for n := 0; time.Now().Before(deadline); n++ {
		time.Sleep(min(every, time.Until(deadline)))
		rss, files := procStats()
		mu.Lock()
		s := sample{at: time.Since(start).Round(time.Second), rss: rss, files: files, adds: counts["adds"], found: len(acked), memories: len(acked) + facts}
		mu.Unlock()
		samples = append(samples, s)
		pending, _ := st.PendingOutbox(ctx, "")
		t.Logf("t=%v rss=%.1f MiB open_files=%d adds=%d live_episodes=%d live_memories=%d outbox=%d %s",
			s.at, float64(s.rss)/(1<<20), s.files, s.adds, s.found, s.memories, pending, memBreakdown(dbPath))
		if profDir != "" {
			writeHeapProfile(t, filepath.Join(profDir, fmt.Sprintf("heap-%03d.pprof", n)))
		}
	}
	wg.Wait()

	// Every acknowledged episode not deleted is found; every deleted one
	// is gone.
	missing, present := 0, 0
	check := func(m map[string]lore.Scope, want bool) {
		for id, sc := range m {
			eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: []string{id}})
			if err != nil {
				fail("final check", err)
				continue
			}
			if found := len(eps) == 1; found != want {
				if want {
					missing++
				} else {
					present++
				}
			}
		}
	}
	check(acked, true)
	check(deleted, false)
	check(deletedOld, false)
	t.Logf("%v: %d adds, %d searches, %d deletes, %d errors; %d acked episodes live, %d missing; %d episodes deleted, the last %d checked, %d still present",
		total, counts["adds"], counts["searches"], counts["deletes"], counts["errors"], len(acked), missing, deletedAll, len(deleted)+len(deletedOld), present)
	for _, err := range errs {
		t.Error(err)
	}
	if missing > 0 || present > 0 {
		t.Errorf("%d acknowledged episodes missing, %d deleted ones present", missing, present)
	}
	if counts["adds"] == 0 || counts["searches"] == 0 || counts["deletes"] == 0 {
		t.Errorf("the soak did no work: %v", counts)
	}
	// Warm-up ends at the first sample with the live set full, and no
	// earlier than a fifth of the run.
	w := len(samples) / 5
	for w < len(samples) && samples[w].found < liveCap {
		w++
	}
	if len(samples) >= 5 && w < len(samples)-2 {
		warm, last := samples[w], samples[len(samples)-1]
		t.Logf("after warm-up (t=%v): rss %.1f → %.1f MiB, open files %d → %d, live memories %d → %d",
			warm.at, float64(warm.rss)/(1<<20), float64(last.rss)/(1<<20), warm.files, last.files, warm.memories, last.memories)
		if grown := last.memories - warm.memories; !deleteFacts && grown > 0 {
			t.Logf("%.0f bytes of resident memory per live memory added after warm-up", float64(last.rss-warm.rss)/float64(grown))
		}
		if float64(last.rss) > 1.1*float64(warm.rss) {
			// With LORE_SOAK_DELETE=episodes the facts drawn from
			// deleted episodes stay, so the stored data, and with it
			// the vector cache and the database pages read, grows for
			// the whole run: that growth is reported, not failed.
			// LORE_SOAK_GROWTH=report logs it in the default mode too.
			report := t.Errorf
			if !deleteFacts || os.Getenv("LORE_SOAK_GROWTH") == "report" {
				report = t.Logf
			}
			report("resident memory grew from %d to %d bytes after warm-up (> 10%%)", warm.rss, last.rss)
		}
		// The store's reader pool opens connections as concurrency asks
		// for them and keeps them: each holds the database and its WAL
		// open, so a connection first needed after warm-up adds two files
		// without any leak (a CI run saw 17 → 19). A leak grows past that.
		poolSlack := int64(2 * max(4, runtime.GOMAXPROCS(0)))
		if grown := last.files - warm.files; float64(last.files) > 1.1*float64(warm.files) && grown > poolSlack {
			t.Errorf("open files grew from %d to %d after warm-up (> 10%% and > %d, the reader pool's files)", warm.files, last.files, poolSlack)
		}
	} else if total >= time.Minute {
		t.Errorf("the live set never filled (%d samples); memory growth cannot be judged", len(samples))
	}
}

// procStats returns the process's resident memory in bytes and its number
// of open file descriptors (Linux /proc; 0 where unavailable).
func procStats() (rss, files int64) {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				rss = kb << 10
			}
		}
	}
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		files = int64(len(ents))
	}
	return rss, files
}

// memBreakdown says where resident memory is: the Go heap in use, memory
// the Go runtime holds from the OS, anonymous resident pages and the part
// of them outside Go (SQLite's page caches, schemas and statements are
// allocated by modernc.org/libc, outside the Go heap; an estimate, since
// not all that Go holds is resident), file-backed resident pages (the
// readers' memory-mapped database pages), the database and WAL sizes, and
// the goroutines.
func memBreakdown(dbPath string) string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var anon, file int64
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "RssAnon:":
				anon = kb << 10
			case "RssFile:":
				file = kb << 10
			}
		}
	}
	size := func(p string) int64 {
		if fi, err := os.Stat(p); err == nil {
			return fi.Size()
		}
		return 0
	}
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	// What the Go runtime holds from the OS and has not returned; the rest
	// of the anonymous resident memory is SQLite's (and the C library's).
	goHeld := int64(ms.Sys - ms.HeapReleased)
	return fmt.Sprintf("heap_inuse=%.1f go_held=%.1f rss_anon=%.1f non_go_anon≈%.1f rss_file=%.1f db=%.1f wal=%.1f MiB goroutines=%d",
		mib(int64(ms.HeapInuse)), mib(goHeld), mib(anon), mib(max(0, anon-goHeld)), mib(file),
		mib(size(dbPath)), mib(size(dbPath+"-wal")), runtime.NumGoroutine())
}

// writeHeapProfile writes the heap profile (inuse and alloc) to path.
func writeHeapProfile(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Errorf("heap profile: %v", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		t.Errorf("heap profile: %v", err)
	}
}
