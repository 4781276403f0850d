package api

import (
	"net/http"
	"testing"

	"github.com/lore-memory/lore"
)

// TestQueueBoundAnswers429: past a tenant's bound of unfinished jobs, a
// queued add is refused with 429, Retry-After and the JSON error, and
// stores nothing; sync adds and other tenants still go through.
func TestQueueBoundAnswers429(t *testing.T) {
	e := newEnv(t)
	e.svc.Config.MaxPendingPerTenant = 2 // no workers run: jobs stay queued
	add := map[string]any{"user_id": "u", "messages": []map[string]string{{"role": "user", "content": "I live in Oslo."}}}
	e.must(http.StatusAccepted, "POST", "/v1/memories", add)
	e.must(http.StatusAccepted, "POST", "/v1/memories", add)
	rec := e.do("POST", "/v1/memories", add)
	wantError(t, rec, http.StatusTooManyRequests, lore.ERATELIMITED, "unfinished extraction jobs")
	if ra := rec.Header().Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After=%q, want a positive number of seconds", ra)
	}
	list := decode[struct {
		Results []any `json:"results"`
	}](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=u", nil))
	if len(list.Results) != 2 {
		t.Errorf("stored memories=%d after the refusal, want the 2 accepted adds", len(list.Results))
	}

	sync := map[string]any{"user_id": "u", "sync": true, "messages": []map[string]string{{"role": "user", "content": "I work at Acme."}}}
	e.must(http.StatusOK, "POST", "/v1/memories", sync)
	other := map[string]any{"user_id": "u", "tenant_id": "other", "messages": []map[string]string{{"role": "user", "content": "I live in Oslo."}}}
	e.must(http.StatusAccepted, "POST", "/v1/memories", other)
}
