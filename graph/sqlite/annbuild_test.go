package sqlite

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// waitANN waits until st has finished n background index builds.
func waitANN(t testing.TB, st *Store, n int64) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got, _ := st.ANNBuilds()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the vector index was not built within 2 minutes (%d builds, want %d)", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestANNBuildsInBackground: the first search over the threshold answers
// at once with the exact scan, searches stay exact while the index is
// built, writes made meanwhile reach the index, and once it is ready the
// searches use it.
func TestANNBuildsInBackground(t *testing.T) {
	ctx := context.Background()
	st, idx := openIndex(t)
	sc := testScope()
	r := rand.New(rand.NewPCG(7, 8))
	vecs := clustered(r, 2000, 32, 20)
	docs := make([]lore.IndexDoc, len(vecs))
	for i, v := range vecs {
		docs[i] = lore.IndexDoc{ID: "d" + strconv.Itoa(i), Kind: lore.KindFact, Scope: sc, Text: "x", Vector: v}
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	st.annBuildHook = func() {
		started <- struct{}{}
		<-release
	}
	search := func(q lore.IndexQuery) []lore.IndexHit {
		t.Helper()
		hits, err := idx.SearchVector(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	exactOf := func(q lore.IndexQuery) []lore.IndexHit {
		t.Helper()
		st.SetANNThreshold(0)
		defer st.SetANNThreshold(1000)
		return search(q)
	}
	q := lore.IndexQuery{Scope: sc, Vector: vecs[3], Limit: 20}
	st.SetANNThreshold(1000)
	if got, want := search(q), exactOf(q); !slices.Equal(got, want) {
		t.Fatalf("first search over the threshold: %v, want the exact scan's %v", got, want)
	}
	<-started
	// While the build waits: searches are exact, and writes are logged.
	if got, want := search(q), exactOf(q); !slices.Equal(got, want) {
		t.Fatalf("search during the build: %v, want the exact scan's %v", got, want)
	}
	st.vectors.mu.Lock()
	set := st.vectors.sets[readKey(sc)]
	st.vectors.mu.Unlock()
	set.mu.RLock()
	building, ann := set.annBuilding, set.ann
	set.mu.RUnlock()
	if !building || ann != nil {
		t.Fatalf("during the build: building=%v, index=%v; want true, false", building, ann != nil)
	}
	gone := search(q)[0].ID
	if err := idx.Delete(ctx, sc, []string{gone}); err != nil {
		t.Fatal(err)
	}
	if err := idx.Upsert(ctx, []lore.IndexDoc{{ID: "new", Kind: lore.KindFact, Scope: sc, Text: "x", Vector: vecs[3]}}); err != nil {
		t.Fatal(err)
	}
	close(release)
	waitANN(t, st, 1)
	set.mu.RLock()
	ann = set.ann
	set.mu.RUnlock()
	if ann == nil {
		t.Fatal("no index after the build")
	}
	if _, ok := ann.byID[gone]; ok {
		t.Errorf("the index holds %s, deleted during its build", gone)
	}
	if _, ok := ann.byID["new"]; !ok {
		t.Error("the index lacks the document written during its build")
	}
	if ann.live() != len(vecs) {
		t.Errorf("the index holds %d live documents, want %d", ann.live(), len(vecs))
	}
	got := search(q)
	if got[0].ID != "new" || slices.ContainsFunc(got, func(h lore.IndexHit) bool { return h.ID == gone }) {
		t.Errorf("after the build: %v, want new first and %s absent", got, gone)
	}
}

// TestANNBuildStopsOnClose: closing the Store while an index is being
// built stops the build and waits for its goroutine.
func TestANNBuildStopsOnClose(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir()+"/lore.db")
	if err != nil {
		t.Fatal(err)
	}
	idx := st.Index()
	sc := testScope()
	vecs := clustered(rand.New(rand.NewPCG(9, 10)), 3000, 64, 30)
	docs := make([]lore.IndexDoc, len(vecs))
	for i, v := range vecs {
		docs[i] = lore.IndexDoc{ID: "d" + strconv.Itoa(i), Kind: lore.KindFact, Scope: sc, Text: "x", Vector: v}
	}
	if err := idx.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	// The build waits for Close to begin, so it must stop, not finish.
	st.annBuildHook = func() {
		close(started)
		<-st.annStop
	}
	st.SetANNThreshold(1000)
	if _, err := idx.SearchVector(ctx, lore.IndexQuery{Scope: sc, Vector: vecs[0], Limit: 10}); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := errors.Join(idx.Close(), st.Close()); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.ANNBuilds(); n != 0 {
		t.Errorf("%d builds finished, want the build stopped", n)
	}
	st.vectors.mu.Lock()
	set := st.vectors.sets[readKey(sc)]
	st.vectors.mu.Unlock()
	set.mu.RLock()
	defer set.mu.RUnlock()
	if set.annBuilding {
		t.Error("the set is still marked as building after Close")
	}
}
