// Package storetest is the conformance suite every backend of lore.Store and
// lore.Index runs: written once against the ports, so a new backend gets the
// whole suite for free.
//
// A backend's test calls RunStore and RunIndex with its name and a function
// that opens a ready store (registering its own cleanup with tb.Cleanup):
//
//	func TestStore(t *testing.T) {
//		storetest.RunStore(t, "sqlite", func(tb testing.TB) lore.Store { return mustOpen(tb) })
//	}
//
// Every subtest's name begins with the backend name ("sqlite/MergeFact/CountsRepeats")
// so that CI logs show what passed where. Every subtest runs in parallel in
// its own random tenant, so a shared server can run the suite while it holds
// other data, and removes what it wrote with DeleteScope.
package storetest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// suite carries what every subtest needs: the backend's name and a way to
// register named, parallel subtests.
type suite struct {
	t       *testing.T
	backend string
}

// run registers a parallel subtest named backend/name.
func (s suite) run(name string, fn func(t *testing.T)) {
	s.t.Run(s.backend+"/"+name, func(t *testing.T) {
		t.Parallel()
		fn(t)
	})
}

// alone registers a subtest named backend/name that runs by itself, not
// beside the suite's parallel subtests: for a check over the whole store
// (a global rebuild that must change nothing) that their writes would race.
func (s suite) alone(name string, fn func(t *testing.T)) {
	s.t.Run(s.backend+"/"+name, fn)
}

// serial registers a parallel subtest named backend/name whose own
// subtests (added with the returned function) run one after another.
func (s suite) serial(name string, body func(run func(name string, fn func(t *testing.T)))) {
	s.t.Run(s.backend+"/"+name, func(t *testing.T) {
		t.Parallel()
		body(func(name string, fn func(t *testing.T)) { t.Run(name, fn) })
	})
}

// newTenant returns a tenant id no other test uses.
func newTenant() string { return "test-" + uuid.NewString() }

// userScope returns a scope for one user of a fresh tenant.
func userScope() lore.Scope {
	return lore.Scope{TenantID: newTenant(), UserID: "alice"}
}

// ctxFor returns a context that ends with the test.
func ctxFor(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// cleanupStore removes everything a test wrote under the scopes' tenants.
// Reading scopes must name a user or an agent, so every user and agent the
// test used is listed.
func cleanupStore(t *testing.T, st lore.Store, scopes ...lore.Scope) {
	t.Helper()
	t.Cleanup(func() {
		for _, sc := range scopes {
			if _, err := st.DeleteScope(context.Background(), sc); err != nil {
				t.Errorf("cleanup: DeleteScope(%+v): %v", sc, err)
			}
		}
	})
}

// baseTime is a fixed, second-aligned time so that every backend can round
// trip it exactly.
var baseTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// at returns baseTime plus d hours.
func at(hours int) time.Time { return baseTime.Add(time.Duration(hours) * time.Hour) }

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// wantCode fails the test unless err carries the lore error code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := lore.ErrorCode(err); got != code {
		t.Fatalf("%s: error code=%q (err=%v), want %q", what, got, err, code)
	}
}

// must fails the test on a non-nil error.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// sameTime fails unless got and want are the same instant.
func sameTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Errorf("%s=%v, want %v", what, got, want)
	}
}

// sortedCopy returns a sorted copy of ss.
func sortedCopy(ss []string) []string {
	out := slices.Clone(ss)
	sort.Strings(out)
	return out
}

// sameSet fails unless got and want hold the same strings in any order.
func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	if g, w := sortedCopy(got), sortedCopy(want); !slices.Equal(g, w) {
		t.Errorf("%s=%v, want %v", what, g, w)
	}
}

// sameList fails unless got and want hold the same strings in the same order.
func sameList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s=%v, want %v", what, got, want)
	}
}

// testDim is the vector dimension the index suite uses: MiniLM's, so that a
// shared index that fixes one dimension per collection accepts the vectors.
const testDim = 384

// unitVector returns a random unit vector of testDim from a seeded source.
func unitVector(r *rand.Rand) []float32 {
	v := make([]float32, testDim)
	var n float64
	for i := range v {
		x := r.NormFloat64()
		v[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return v
}

// blend returns the unit vector in the direction of a*(1-w) + b*w.
func blend(a, b []float32, w float64) []float32 {
	out := make([]float32, len(a))
	var n float64
	for i := range a {
		x := float64(a[i])*(1-w) + float64(b[i])*w
		out[i] = float32(x)
		n += x * x
	}
	n = math.Sqrt(n)
	for i := range out {
		out[i] = float32(float64(out[i]) / n)
	}
	return out
}

// hitIDs returns the ids of hits in order.
func hitIDs(hits []lore.IndexHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

// factIDs returns the ids of facts in order.
func factIDs(facts []*lore.Fact) []string {
	out := make([]string, len(facts))
	for i, f := range facts {
		out[i] = f.ID
	}
	return out
}

// episodeIDs returns the ids of episodes in order.
func episodeIDs(eps []*lore.Episode) []string {
	out := make([]string, len(eps))
	for i, e := range eps {
		out[i] = e.ID
	}
	return out
}

// entityNames returns the names of entities in order.
func entityNames(ents []*lore.Entity) []string {
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name
	}
	return out
}

// eventKinds returns the kinds of history events in order.
func eventKinds(evs []lore.HistoryEvent) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = string(e.Event)
	}
	return out
}

// describe names a scope in failure messages.
func describe(sc lore.Scope) string {
	return fmt.Sprintf("{user=%q agent=%q run=%q}", sc.UserID, sc.AgentID, sc.RunID)
}
