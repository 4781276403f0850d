package retrieve

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func TestParseFilterErrors(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		wantKey string // the message must name it
	}{
		{"not an object", `[1,2]`, "filters"},
		{"nested object value", `{"a": {"b": 1}}`, "filters.a"},
		{"array value", `{"tags": ["x"]}`, "filters.tags"},
		{"null value", `{"topic": null}`, "filters.topic"},
		{"unknown operator", `{"n": {"ne": 3}}`, "filters.n"},
		{"in not array", `{"topic": {"in": "x"}}`, "filters.topic"},
		{"in with object member", `{"topic": {"in": [{"a":1}]}}`, "filters.topic"},
		{"in combined", `{"topic": {"in": ["x"], "gte": 1}}`, "filters.topic"},
		{"range bound bool", `{"n": {"gte": true}}`, "filters.n.gte"},
		{"range bound not a time", `{"at": {"gte": "yesterday"}}`, "filters.at.gte"},
		{"range mixes kinds", `{"at": {"gte": 1, "lt": "2024-01-01T00:00:00Z"}}`, "filters.at"},
		{"empty operator object", `{"n": {}}`, "filters.n"},
		{"empty key", `{"": 1}`, "empty metadata key"},
		{"second key is reported", `{"a": 1, "b": {"bad": 1}}`, "filters.b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFilter(json.RawMessage(tt.raw))
			if err == nil {
				t.Fatalf("ParseFilter(%s) = %+v, nil; want EINVALID", tt.raw, f)
			}
			if code := lore.ErrorCode(err); code != lore.EINVALID {
				t.Fatalf("code = %q, want %q (err %v)", code, lore.EINVALID, err)
			}
			if msg := lore.ErrorMessage(err); !strings.Contains(msg, tt.wantKey) {
				t.Fatalf("message %q does not name %q", msg, tt.wantKey)
			}
		})
	}
}

func TestParseFilterEmpty(t *testing.T) {
	for _, raw := range []string{"", " ", "null"} {
		f, err := ParseFilter(json.RawMessage(raw))
		if err != nil || f != nil {
			t.Fatalf("ParseFilter(%q) = %v, %v; want nil, nil", raw, f, err)
		}
	}
	f, err := ParseFilter(json.RawMessage(`{}`))
	if err != nil || !f.Empty() || !f.Match(nil) {
		t.Fatalf("ParseFilter({}) = %+v, %v; want an empty filter matching everything", f, err)
	}
}

func TestFilterMatch(t *testing.T) {
	meta := func(raw string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name   string
		filter string
		meta   map[string]any
		want   bool
	}{
		{"eq string", `{"topic": "travel"}`, meta(`{"topic": "travel"}`), true},
		{"eq string differs", `{"topic": "travel"}`, meta(`{"topic": "work"}`), false},
		{"eq is case sensitive", `{"topic": "travel"}`, meta(`{"topic": "Travel"}`), false},
		{"eq number json", `{"n": 3}`, meta(`{"n": 3.0}`), true},
		{"eq number go int", `{"n": 3}`, map[string]any{"n": 3}, true},
		{"eq bool", `{"pinned": true}`, meta(`{"pinned": true}`), true},
		{"eq bool vs string", `{"pinned": true}`, meta(`{"pinned": "true"}`), false},
		{"eq number vs string", `{"n": 3}`, meta(`{"n": "3"}`), false},
		{"missing key", `{"topic": "travel"}`, meta(`{"other": "travel"}`), false},
		{"nil metadata", `{"topic": "travel"}`, nil, false},
		{"in hit", `{"topic": {"in": ["work", "travel"]}}`, meta(`{"topic": "travel"}`), true},
		{"in miss", `{"topic": {"in": ["work", "home"]}}`, meta(`{"topic": "travel"}`), false},
		{"in mixed types", `{"v": {"in": ["a", 2]}}`, meta(`{"v": 2}`), true},
		{"in empty", `{"v": {"in": []}}`, meta(`{"v": 2}`), false},
		{"gte lte inside", `{"n": {"gte": 1, "lte": 5}}`, meta(`{"n": 5}`), true},
		{"gt excludes bound", `{"n": {"gt": 5}}`, meta(`{"n": 5}`), false},
		{"lt", `{"n": {"lt": 5}}`, meta(`{"n": 4.5}`), true},
		{"range on string value", `{"n": {"gte": 1}}`, meta(`{"n": "7"}`), false},
		{"time range inside", `{"at": {"gte": "2023-05-01T00:00:00Z", "lt": "2023-06-01T00:00:00Z"}}`, meta(`{"at": "2023-05-08T13:56:00Z"}`), true},
		{"time range outside", `{"at": {"gte": "2023-05-01T00:00:00Z", "lt": "2023-06-01T00:00:00Z"}}`, meta(`{"at": "2023-06-01T00:00:00Z"}`), false},
		{"time with offset", `{"at": {"lt": "2023-05-08T12:00:00Z"}}`, meta(`{"at": "2023-05-08T13:00:00+02:00"}`), true},
		{"time value from go", `{"at": {"gte": "2023-05-01T00:00:00Z"}}`, map[string]any{"at": time.Date(2023, 5, 2, 0, 0, 0, 0, time.UTC)}, true},
		{"time range on bad string", `{"at": {"gte": "2023-05-01T00:00:00Z"}}`, meta(`{"at": "soon"}`), false},
		{"and of keys", `{"topic": "travel", "n": {"gte": 2}}`, meta(`{"topic": "travel", "n": 1}`), false},
		{"and of keys all hold", `{"topic": "travel", "n": {"gte": 2}}`, meta(`{"topic": "travel", "n": 2}`), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFilter(json.RawMessage(tt.filter))
			if err != nil {
				t.Fatalf("ParseFilter(%s): %v", tt.filter, err)
			}
			if got := f.Match(tt.meta); got != tt.want {
				t.Fatalf("Match(%v) with %s = %v, want %v", tt.meta, tt.filter, got, tt.want)
			}
		})
	}
}

func TestNilFilterMatches(t *testing.T) {
	var f *Filter
	if !f.Match(map[string]any{"a": 1}) || !f.Match(nil) {
		t.Fatal("nil Filter did not match; want it to match everything")
	}
}

// FuzzParseFilter checks that any input either parses into a filter whose
// Match never panics, or fails with EINVALID; never anything else.
func FuzzParseFilter(f *testing.F) {
	for _, seed := range []string{
		`{"topic": "travel"}`, `{"n": {"gte": 1, "lt": 5}}`, `{"at": {"gte": "2023-05-01T00:00:00Z"}}`,
		`{"t": {"in": ["a", 1, true]}}`, `null`, `[]`, `{"a": {"in": [[]]}}`, `{"a": 1e999}`, `{"a":`,
	} {
		f.Add(seed)
	}
	meta := map[string]any{"topic": "travel", "n": 3.0, "at": "2023-05-02T00:00:00Z", "t": true, "a": 1}
	f.Fuzz(func(t *testing.T, raw string) {
		flt, err := ParseFilter(json.RawMessage(raw))
		if err != nil {
			if code := lore.ErrorCode(err); code != lore.EINVALID {
				t.Fatalf("ParseFilter(%q) error code %q, want %q", raw, code, lore.EINVALID)
			}
			return
		}
		flt.Match(meta)
		flt.Match(nil)
	})
}
