package lore

import (
	"testing"

	"github.com/google/uuid"
)

// The stores break ties by id, so ids made one after another must sort in
// the order they were made, even within one millisecond.
func TestNewIDSortsInCreationOrder(t *testing.T) {
	prev := NewID()
	for i := range 10000 {
		id := NewID()
		if id <= prev {
			t.Fatalf("id %d %q does not sort after %q", i, id, prev)
		}
		u, err := uuid.Parse(id)
		if err != nil || u.Version() != 7 {
			t.Fatalf("id %q: version %v err %v, want a UUIDv7", id, u.Version(), err)
		}
		prev = id
	}
}
