package api

import (
	"net/http"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestAddExpiry: expires_at and mem0's expiration_date reach the stored
// memories; a past, malformed or doubled expiry is a 400 naming the field
// and stores nothing.
func TestAddExpiry(t *testing.T) {
	e := newEnv(t)
	msg := func(extra map[string]any) map[string]any {
		b := map[string]any{"user_id": "alice", "infer": false, "messages": []map[string]any{{"role": "user", "content": "parking code 4711"}}}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	for _, c := range []struct {
		name  string
		extra map[string]any
		field string
	}{
		{"past", map[string]any{"expires_at": "2001-01-01T00:00:00Z"}, "expires_at"},
		{"malformed", map[string]any{"expires_at": "tomorrow"}, "expires_at"},
		{"date with a time", map[string]any{"expiration_date": "2999-01-01T00:00:00Z"}, "expiration_date"},
		{"both", map[string]any{"expires_at": "2999-01-01T00:00:00Z", "expiration_date": "2999-01-01"}, "not both"},
	} {
		wantError(t, e.do("POST", "/v1/memories", msg(c.extra)), http.StatusBadRequest, lore.EINVALID, c.field)
	}
	if page := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice", nil)); len(page.Results) != 0 {
		t.Fatalf("refused adds stored %d memories", len(page.Results))
	}
	at := decode[addDone](t, e.must(http.StatusOK, "POST", "/v1/memories", msg(map[string]any{"expires_at": "2999-01-01T10:00:00+02:00"})))
	day := decode[addDone](t, e.must(http.StatusOK, "POST", "/v1/memories", msg(map[string]any{"expiration_date": "2999-06-30"})))
	for id, want := range map[string]time.Time{
		at.EpisodeIDs[0]:  time.Date(2999, 1, 1, 8, 0, 0, 0, time.UTC),
		day.EpisodeIDs[0]: time.Date(2999, 6, 30, 0, 0, 0, 0, time.UTC),
	} {
		got := decode[Memory](t, e.must(http.StatusOK, "GET", "/v1/memories/"+id+"?user_id=alice", nil))
		if got.Episode == nil || got.Episode.ExpiresAt == nil || !got.Episode.ExpiresAt.Equal(want) {
			t.Errorf("memory %s expires_at=%v, want %v", id, got.Episode, want)
		}
	}
}

// TestRetentionPolicyRoutes: PUT sets and GET reads the caller's tenant's
// raw-text retention; bad values are 400.
func TestRetentionPolicyRoutes(t *testing.T) {
	e := newEnv(t)
	got := decode[retentionBody](t, e.must(http.StatusOK, "GET", "/v1/retention", nil))
	if got.TenantID != lore.DefaultTenant || got.RawTextDays == nil || *got.RawTextDays != 0 {
		t.Errorf("GET /v1/retention=%+v, want the default tenant keeping text (0)", got)
	}
	e.must(http.StatusOK, "PUT", "/v1/retention", map[string]any{"raw_text_days": 30})
	if got := decode[retentionBody](t, e.must(http.StatusOK, "GET", "/v1/retention", nil)); *got.RawTextDays != 30 {
		t.Errorf("raw_text_days after PUT=%d, want 30", *got.RawTextDays)
	}
	wantError(t, e.do("PUT", "/v1/retention", map[string]any{"raw_text_days": -1}), http.StatusBadRequest, lore.EINVALID, "raw_text_days")
	wantError(t, e.do("PUT", "/v1/retention", map[string]any{}), http.StatusBadRequest, lore.EINVALID, "raw_text_days")
}
