package retrieve

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestRelationPath: the relation facts walked are the path, to be lowered,
// when the query asks an attribute of the entity they reach; when it asks
// who the entity is, they are the answer and no path.
func TestRelationPath(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	emma := &lore.Entity{ID: "emma", Name: "Emma", Type: "person"}
	edge := &lore.Fact{ID: "edge", Text: "Emma is user's sister", Predicate: "has_sister", Object: "Emma"}
	lives := &lore.Fact{ID: "lives", Text: "Emma lives in Rome", Predicate: "lives_in", Object: "Rome"}
	for q, wantPath := range map[string]bool{
		"Where does my sister live?": true,
		"Who is my sister?":          false,
	} {
		a := analyse(q, now, nil)
		r := resolved{entities: []*lore.Entity{emma}, edges: []*lore.Fact{edge}, used: map[string]bool{"sister": true}, complete: true}
		out := relationSignal(r, []*lore.Fact{lives}, nil, a, []lore.DocKind{lore.KindFact}, 1, asOf{T: now, Now: now})
		if got := len(out.path) == 1 && out.path[0] == "edge"; got != wantPath {
			t.Errorf("%q: path %v, want the edge: %v", q, out.path, wantPath)
		}
	}
}
