package scale_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
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
// episodes that keep 200 live. It logs the process's
// resident memory and open files every LORE_SOAK_EVERY (default 10s) and
// fails on any error, on an acknowledged episode that is not found at the
// end (or a deleted one that is), and on resident memory or open files
// growing more than 10% from the end of the warm-up (the live set full,
// and at least a fifth of the run) to the end.
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
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatal(err)
	}
	idx := st.Index()
	defer func() { _ = errors.Join(idx.Close(), st.Close()) }()
	emb := storetest.HashEmbedder{}
	svc := &ingest.Service{Store: st, Index: idx, Embedder: emb, Extractor: rules.New(), Logger: slog.New(slog.DiscardHandler)}
	pipe := &retrieve.Pipeline{Graph: st, Index: idx, Embedder: emb, Config: retrieve.DefaultConfig()}

	const users = 20
	scope := func(u int) lore.Scope { return lore.Scope{TenantID: "soak", UserID: "user-" + strconv.Itoa(u)} }
	var (
		mu      sync.Mutex
		acked   = map[string]lore.Scope{} // episode id → scope
		deleted = map[string]lore.Scope{}
		order   []string
		errs    []error
		counts  = map[string]int{}
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
			order = append(order, id)
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
	// Up to 40 deletes/s of the oldest live episodes once more than
	// liveCap are live, so the data stays the same size after warm-up and
	// memory should too.
	const liveCap = 200
	ticker(25*time.Millisecond, func(n int) {
		mu.Lock()
		var id string
		var sc lore.Scope
		for len(order) > liveCap && id == "" {
			id, order = order[0], order[1:]
			sc = acked[id]
		}
		mu.Unlock()
		if id == "" {
			return
		}
		eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, IDs: []string{id}})
		if err != nil || len(eps) != 1 {
			fail("find episode to delete", fmt.Errorf("%s: %d found: %w", id, len(eps), err))
			return
		}
		if err := st.DeleteEpisode(ctx, sc, id, "soak"); err != nil {
			fail("delete episode", err)
			return
		}
		if err := idx.Delete(ctx, sc, ingest.EpisodeDocIDs(eps[0])); err != nil {
			fail("delete episode docs", err)
			return
		}
		mu.Lock()
		delete(acked, id)
		deleted[id] = sc
		counts["deletes"]++
		mu.Unlock()
	})

	type sample struct {
		at          time.Duration
		rss, files  int64
		adds, found int
	}
	var samples []sample
	start := time.Now()
	for time.Now().Before(deadline) {
		time.Sleep(min(every, time.Until(deadline)))
		rss, files := procStats()
		mu.Lock()
		s := sample{at: time.Since(start).Round(time.Second), rss: rss, files: files, adds: counts["adds"], found: len(acked)}
		mu.Unlock()
		samples = append(samples, s)
		t.Logf("t=%v rss=%.1f MiB open_files=%d adds=%d live_episodes=%d", s.at, float64(s.rss)/(1<<20), s.files, s.adds, s.found)
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
	t.Logf("%v: %d adds, %d searches, %d deletes, %d errors; %d acked episodes live, %d missing; %d deleted, %d still present",
		total, counts["adds"], counts["searches"], counts["deletes"], counts["errors"], len(acked), missing, len(deleted), present)
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
		t.Logf("after warm-up (t=%v): rss %.1f → %.1f MiB, open files %d → %d", warm.at, float64(warm.rss)/(1<<20), float64(last.rss)/(1<<20), warm.files, last.files)
		if float64(last.rss) > 1.1*float64(warm.rss) {
			// Deleting an episode keeps the facts extracted from it, so
			// the stored facts and their vectors may still grow after the
			// live episodes stop growing; the cause of the growth is not
			// isolated. LORE_SOAK_GROWTH=report logs the growth instead
			// of failing.
			report := t.Errorf
			if os.Getenv("LORE_SOAK_GROWTH") == "report" {
				report = t.Logf
			}
			report("resident memory grew from %d to %d bytes after warm-up (> 10%%)", warm.rss, last.rss)
		}
		if float64(last.files) > 1.1*float64(warm.files) {
			t.Errorf("open files grew from %d to %d after warm-up (> 10%%)", warm.files, last.files)
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
