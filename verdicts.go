package lore

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// VerdictPage selects one page of a scope's verdicts, newest first: at
// most Limit of them, strictly older than the cursor Before (from the
// previous page's VerdictCursor; "" starts at the newest).
type VerdictPage struct {
	Limit  int
	Before string
}

// VerdictLister lists a user's verdicts page by page, newest first (GET
// /v1/users/{id}/feedback). Implementations: graph/sqlite and graph/neo4j,
// covered by storetest.RunFeedback.
type VerdictLister interface {
	// ListVerdicts returns up to page.Limit of the verdicts the scope
	// Contains, newest first (ties by id, descending), older than
	// page.Before.
	ListVerdicts(ctx context.Context, scope Scope, page VerdictPage) ([]Verdict, error)
}

// VerdictCursor is the cursor that continues a listing after v:
// "<unix microseconds>_<id>".
func VerdictCursor(v Verdict) string {
	return strconv.FormatInt(v.CreatedAt.UnixMicro(), 10) + "_" + v.ID
}

// ParseVerdictCursor reads a VerdictCursor; "" is the zero time and id.
// Anything else malformed is EINVALID.
func ParseVerdictCursor(c string) (time.Time, string, error) {
	if c == "" {
		return time.Time{}, "", nil
	}
	at, id, ok := strings.Cut(c, "_")
	us, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || us <= 0 || id == "" {
		return time.Time{}, "", Errorf(EINVALID, "cursor %q: want the next_cursor of an earlier page", c)
	}
	if err := ValidateID("cursor id", id); err != nil {
		return time.Time{}, "", err
	}
	return time.UnixMicro(us).UTC(), id, nil
}
