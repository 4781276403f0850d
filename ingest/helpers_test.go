package ingest

import (
	"context"
	"hash/fnv"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lore-memory/lore"
)

// stubExtractor is a function-field lore.Extractor.
type stubExtractor struct {
	fn func(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error)
}

func (s stubExtractor) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	return s.fn(ctx, req)
}

// hashEmbedder embeds a text as its bag of lower-cased words hashed into
// Dim buckets, L2-normalized: texts sharing words are similar.
type hashEmbedder struct {
	name string
	dim  int
}

func (h hashEmbedder) Info() lore.EmbedderInfo {
	return lore.EmbedderInfo{Name: h.name, Dim: h.dim, Checksum: "test"}
}

func (h hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.dim)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			f := fnv.New32a()
			f.Write([]byte(w))
			v[f.Sum32()%uint32(h.dim)]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		if n > 0 {
			for j := range v {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}

// quietLogger drops log output so test failures stay readable.
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// testConfig is DefaultConfig with delays short enough for unit tests.
func testConfig() Config {
	c := DefaultConfig()
	c.BackoffBase = time.Millisecond
	c.BackoffMax = 4 * time.Millisecond
	c.PollInterval = 5 * time.Millisecond
	c.Lease = time.Minute
	return c
}

// newTestService returns a Service over fresh in-memory fakes.
func newTestService(t testing.TB, ext lore.Extractor) (*Service, *memStore, *memIndex) {
	t.Helper()
	st, idx := newMemStore(), newMemIndex()
	return &Service{Store: st, Index: idx, Extractor: ext, Config: testConfig(), Logger: quietLogger()}, st, idx
}

// runWorkers starts s.RunWorkers and stops it when the test ends.
func runWorkers(t testing.TB, s *Service) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.RunWorkers(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("RunWorkers: %v", err)
		}
	})
}

// waitJob polls a job until it reaches status and returns it; it fails the
// test if the job is not there within ten seconds.
func waitJob(t testing.TB, q lore.JobQueue, tenant, id string, status lore.JobStatus) *lore.Job {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		job, err := q.GetJob(context.Background(), tenant, id)
		if err != nil {
			t.Fatalf("GetJob(%s): %v", id, err)
		}
		if job.Status == status {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s status=%s attempts=%d error=%q, want %s", id, job.Status, job.Attempts, job.Error, status)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// episodeID returns the id of the episode of req whose content holds content.
func episodeID(t testing.TB, req lore.ExtractRequest, content string) string {
	t.Helper()
	for _, ep := range req.Episodes {
		if strings.Contains(ep.Content, content) {
			return ep.ID
		}
	}
	t.Fatalf("no episode with %q in the extract request", content)
	return ""
}

func alice() lore.Scope { return lore.Scope{UserID: "alice"} }

func msgs(at time.Time, pairs ...string) []Message {
	var out []Message
	for i := 0; i+1 < len(pairs); i += 2 {
		ts := at.Add(time.Duration(i) * time.Second)
		out = append(out, Message{Role: pairs[i], Content: pairs[i+1], CreatedAt: &ts})
	}
	return out
}

func eventKinds(evs []lore.MemoryEvent) []string {
	var out []string
	for _, e := range evs {
		out = append(out, string(e.Event)+":"+e.Memory)
	}
	return out
}
