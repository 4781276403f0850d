package ingest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/graph/neo4j"
	"github.com/lore-memory/lore/index/weaviate"
)

// link is a TCP relay between Lore and a real server that can be cut: while
// down it refuses connections and drops the open ones, as a stopped server
// would, without losing the server's data.
type link struct {
	target string
	ln     net.Listener
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]struct{}
}

func newLink(t *testing.T, target string) *link {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	l := &link{target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	go l.serve()
	t.Cleanup(func() { ln.Close(); l.cut() })
	return l
}

func (l *link) addr() string { return l.ln.Addr().String() }

func (l *link) serve() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.mu.Lock()
		if l.down {
			l.mu.Unlock()
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", l.target)
		if err != nil {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.conns[c], l.conns[s] = struct{}{}, struct{}{}
		l.mu.Unlock()
		go func() { _, _ = io.Copy(s, c); s.Close(); c.Close() }()
		go func() { _, _ = io.Copy(c, s); s.Close(); c.Close() }()
	}
}

// cut takes the link down and drops its connections.
func (l *link) cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.down = true
	for c := range l.conns {
		c.Close()
	}
	clear(l.conns)
}

func (l *link) restore() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.down = false
}

// hostPort returns a server URL's host:port.
func hostPort(t *testing.T, raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("parse %q: %v", raw, err)
	}
	return u.Host
}

// TestBackendOutages cuts Lore off from the real Weaviate, then from the
// real Neo4j, for three seconds each, while adds keep coming. Every add
// the service acknowledged must be found afterwards in both stores, and
// the queue must catch up by itself. How long it took after the last
// restore is logged, not asserted: a timed check would fail on a loaded
// machine (README reports the measured figures).
func TestBackendOutages(t *testing.T) {
	neoURL := serverURL(t, "LORE_TEST_NEO4J_URL", "scripts/neo4j/start.sh PORT")
	weaviateURL := serverURL(t, "LORE_TEST_WEAVIATE_URL", "scripts/weaviate/start.sh")
	ctx := context.Background()
	neoLink, wvLink := newLink(t, hostPort(t, neoURL)), newLink(t, hostPort(t, weaviateURL))
	// bolt://, not neo4j://: routing would hand the driver the server's
	// own address and bypass the link.
	// A short call timeout: a transaction whose connection the cut left
	// half open is given up after it, instead of DefaultCallTimeout.
	st, err := neo4j.Open(ctx, neo4j.Config{URL: "bolt://" + neoLink.addr(), CallTimeout: 2 * time.Second, MaxRetryTime: 2 * time.Second,
		Username: os.Getenv("LORE_TEST_NEO4J_USER"), Password: os.Getenv("LORE_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatalf("neo4j.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	idx, err := weaviate.Open(ctx, weaviate.Config{URL: "http://" + wvLink.addr()})
	if err != nil {
		t.Fatalf("weaviate.Open: %v", err)
	}
	t.Cleanup(func() { idx.Close() })

	cfg := testConfig()
	cfg.OutageRetry = time.Second
	// Named, as lore serve's are, so that a claim or save whose reply the
	// cut lost is handed back at once instead of after its lease.
	cfg.InstanceID = "outage-" + uuid.NewString()
	s := &Service{Store: st, Index: idx, Embedder: hashEmbedder{name: "hash", dim: 384}, Extractor: rules.New(), Config: cfg, Logger: quietLogger()}
	scope := lore.Scope{TenantID: "outage-" + uuid.NewString(), UserID: "u"}
	t.Cleanup(func() {
		_, _ = st.DeleteScope(context.Background(), scope)
		_ = idx.DeleteScope(context.Background(), scope)
	})
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { _ = s.RunWorkers(wctx); close(done) }()
	defer func() { stop(); <-done }()

	type acked struct{ episode, marker, job string }
	var (
		mu       sync.Mutex
		acks     []acked
		refused  int
		slowest  time.Duration
		stopLoad = make(chan struct{})
		loadDone = make(chan struct{})
	)
	go func() {
		defer close(loadDone)
		for i := 0; ; i++ {
			select {
			case <-stopLoad:
				return
			default:
			}
			marker := fmt.Sprintf("zq%dx%s", i, uuid.NewString()[:8])
			at := time.Date(2024, 5, 1, 10, 0, i, 0, time.UTC)
			start := time.Now()
			res, err := s.Add(ctx, AddRequest{Scope: scope, Infer: true, Messages: msgs(at, "user", "I adopted a cat named "+marker+".")})
			mu.Lock()
			slowest = max(slowest, time.Since(start))
			if err != nil {
				if code := lore.ErrorCode(err); code != lore.EUNAVAILABLE {
					t.Errorf("add %d during an outage: %v (code %s), want success or EUNAVAILABLE", i, err, code)
				}
				refused++
			} else {
				acks = append(acks, acked{res.EpisodeIDs[0], marker, res.JobID})
			}
			mu.Unlock()
			time.Sleep(50 * time.Millisecond)
		}
	}()

	outage := func(name string, l *link) {
		time.Sleep(2 * time.Second)
		t.Logf("cutting %s", name)
		l.cut()
		time.Sleep(3 * time.Second)
		l.restore()
		t.Logf("restored %s", name)
	}
	outage("weaviate", wvLink)
	outage("neo4j", neoLink)
	restored := time.Now()
	time.Sleep(time.Second)
	close(stopLoad)
	<-loadDone

	mu.Lock()
	defer mu.Unlock()
	if len(acks) < 20 {
		t.Fatalf("only %d adds acknowledged (refused %d)", len(acks), refused)
	}
	// Every acknowledged add's job finishes once both are back.
	for _, a := range acks {
		for {
			job, err := st.GetJob(ctx, scope.TenantID, a.job)
			if err == nil && job.Status == lore.JobDone {
				break
			}
			if err == nil && job.Status == lore.JobFailed {
				t.Fatalf("job %s failed: %s", a.job, job.Error)
			}
			if time.Since(restored) > time.Minute {
				t.Fatalf("job %s not done %v after the last restore (status %v, err %v)", a.job, time.Since(restored).Round(time.Millisecond), job, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	caughtUp := time.Since(restored)
	// Every acknowledged episode is in the graph and in the index.
	ids := make([]string, len(acks))
	for i, a := range acks {
		ids[i] = a.episode
	}
	eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, IDs: ids, Limit: len(ids)})
	if err != nil {
		t.Fatalf("FindEpisodes: %v", err)
	}
	if len(eps) != len(acks) {
		t.Errorf("graph holds %d of %d acknowledged episodes", len(eps), len(acks))
	}
	missing := 0
	for _, a := range acks {
		hits, err := idx.SearchText(ctx, lore.IndexQuery{Scope: scope, Text: a.marker, Kinds: []lore.DocKind{lore.KindEpisode}, Limit: 5})
		if err != nil {
			t.Fatalf("SearchText: %v", err)
		}
		found := false
		for _, h := range hits {
			found = found || h.ID == a.episode
		}
		if !found {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d acknowledged episodes missing from the index", missing, len(acks))
	}
	t.Logf("acknowledged %d adds, refused %d (EUNAVAILABLE), slowest add %v; queue caught up %v after the last restore",
		len(acks), refused, slowest.Round(time.Millisecond), caughtUp.Round(time.Millisecond))
}
