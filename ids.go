package lore

import "github.com/google/uuid"

// NewID returns a new record id: a UUIDv7, whose leading bits are the time
// it was made and which this process hands out in increasing order. Stores
// break ties in their orderings by id ("last seen, then id"), so with
// random ids two ingests of the same conversation could keep different
// memories at a limit and rank equal scores differently; with these, ties
// go by the order the records were made, the same on every ingest.
func NewID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString() // only when the system's random source fails
	}
	return id.String()
}
