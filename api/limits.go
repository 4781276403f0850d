package api

import (
	"math"
	"sync"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

// MaxQueryBytes bounds a search query. Longer queries are refused with 400
// naming the field: analysing and embedding a query costs CPU in its length,
// and no question to a memory needs more.
const MaxQueryBytes = 4 << 10

// maxListOffset bounds how far GET /v1/memories pages: (page-1)×page_size
// beyond it is refused, so page arithmetic never overflows and no request
// asks a store to skip an unbounded number of rows.
const maxListOffset = 1_000_000

// maxContentBytes is the content cap of one memory: the ingestion
// service's per-message limit, so an update can store no more than an add.
func (s *Server) maxContentBytes() int {
	if n := s.Ingest.Config.MaxContentBytes; n > 0 {
		return n
	}
	return ingest.DefaultConfig().MaxContentBytes
}

// checkContent refuses a memory text over the add path's cap.
func (s *Server) checkContent(field string, text *string) error {
	if text != nil && len(*text) > s.maxContentBytes() {
		return lore.Errorf(lore.ETOOLARGE, "%s is longer than %d bytes", field, s.maxContentBytes())
	}
	return nil
}

// checkQuery refuses a search query over MaxQueryBytes.
func checkQuery(q string) error {
	if len(q) > MaxQueryBytes {
		return lore.Errorf(lore.EINVALID, "query is longer than %d bytes", MaxQueryBytes)
	}
	return nil
}

// checkPage refuses a page that starts past maxListOffset.
func checkPage(page, size int) error {
	if page-1 > maxListOffset/size {
		return lore.Errorf(lore.EINVALID, "page %d is out of range: page × page_size may skip at most %d memories", page, maxListOffset)
	}
	return nil
}

// limiter is a set of token buckets, one per caller (an API key, or a
// client address while the server runs without keys).
type limiter struct {
	rate  float64 // tokens per second; 0 disables the limit
	burst float64
	mu    sync.Mutex
	b     map[string]*bucket
}

// bucket is one caller's tokens as of a time.
type bucket struct {
	tokens float64
	at     time.Time
}

// maxBuckets bounds the limiter's memory; past it, full buckets (callers
// idle long enough to have refilled) are dropped.
const maxBuckets = 10000

func newLimiter(rate float64, burst int) *limiter {
	if burst < 1 {
		burst = max(1, int(math.Ceil(rate)))
	}
	return &limiter{rate: rate, burst: float64(burst), b: map[string]*bucket{}}
}

// take spends one token of caller's bucket at now. When none is left it
// returns false and how long until one is.
func (l *limiter) take(caller string, now time.Time) (time.Duration, bool) {
	if l == nil || l.rate <= 0 {
		return 0, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.b[caller]
	if !ok {
		if len(l.b) >= maxBuckets {
			l.sweep(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.b[caller] = b
	}
	if elapsed := now.Sub(b.at).Seconds(); elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+elapsed*l.rate)
		b.at = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) / l.rate * float64(time.Second)), false
}

// sweep drops the buckets that have refilled completely: forgetting them
// changes nothing for their callers.
func (l *limiter) sweep(now time.Time) {
	for k, b := range l.b {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.b, k)
		}
	}
}
