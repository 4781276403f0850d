package retrieve

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

func dayN(d int) time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d) }

func tp(t time.Time) *time.Time { return &t }

func TestAsOfValid(t *testing.T) {
	now := dayN(400)
	for _, tc := range []struct {
		name string
		f    lore.Fact
		at   asOf
		want bool
	}{
		{"current", lore.Fact{FirstSeen: dayN(1)}, asOf{T: now, Now: now}, true},
		{"ended", lore.Fact{FirstSeen: dayN(1), InvalidAt: tp(dayN(10))}, asOf{T: now, Now: now}, false},
		{"ended after an as-of moment", lore.Fact{FirstSeen: dayN(1), InvalidAt: tp(dayN(10)), ExpiredAt: tp(dayN(10))}, asOf{T: dayN(5), Now: now, Explicit: true}, true},
		{"not yet true at the as-of moment", lore.Fact{FirstSeen: dayN(20)}, asOf{T: dayN(5), Now: now, Explicit: true}, false},
		{"valid_at before first said", lore.Fact{FirstSeen: dayN(20), ValidAt: tp(dayN(2))}, asOf{T: dayN(5), Now: now, Explicit: true}, true},
		{"future without explicit time is kept", lore.Fact{FirstSeen: dayN(500)}, asOf{T: now, Now: now}, true},
		{"withdrawn in system time", lore.Fact{FirstSeen: dayN(1), ExpiredAt: tp(dayN(300))}, asOf{T: now, Now: now}, false},
		{"stored already ended: held before its end", lore.Fact{FirstSeen: dayN(20), InvalidAt: tp(dayN(20))}, asOf{T: dayN(5), Now: now, Explicit: true}, true},
		{"stored already ended: not after its end", lore.Fact{FirstSeen: dayN(20), InvalidAt: tp(dayN(20))}, asOf{T: dayN(25), Now: now, Explicit: true}, false},
		{"ended later than first said: start is when said", lore.Fact{FirstSeen: dayN(20), InvalidAt: tp(dayN(30))}, asOf{T: dayN(5), Now: now, Explicit: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.at.valid(&tc.f); got != tc.want {
				t.Fatalf("valid = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCurrentFirst(t *testing.T) {
	now := dayN(400)
	at := asOf{T: now, Now: now}
	fact := func(id, subj, pred string, start int, end *time.Time, score float64) Result {
		return Result{ID: id, Score: score, Fact: &lore.Fact{ID: id, SubjectID: subj, Predicate: pred, FirstSeen: dayN(start), InvalidAt: end}}
	}
	ep := Result{ID: "ep", Score: 0.95, Episode: &lore.Episode{ID: "ep"}}
	for _, tc := range []struct {
		name      string
		in        []Result
		keepStale bool
		want      []string
	}{
		{"older single value dropped", []Result{fact("shopify", "u", "works_at", 1, nil, 0.9), ep, fact("stripe", "u", "works_at", 50, nil, 0.5)}, false, []string{"ep", "stripe"}},
		{"older single value below its replacement", []Result{fact("shopify", "u", "works_at", 1, nil, 0.9), ep, fact("stripe", "u", "works_at", 50, nil, 0.5)}, true, []string{"ep", "stripe", "shopify"}},
		{"ended value below its replacement", []Result{fact("meat", "u", "eats", 1, tp(dayN(30)), 0.9), fact("veg", "u", "eats", 30, nil, 0.4)}, true, []string{"veg", "meat"}},
		{"multi-valued facts all stay", []Result{fact("a", "u", "likes", 1, nil, 0.9), fact("b", "u", "likes", 50, nil, 0.5)}, false, []string{"a", "b"}},
		{"other subjects untouched", []Result{fact("a", "u", "lives_in", 1, nil, 0.9), fact("b", "emma", "lives_in", 50, nil, 0.5)}, false, []string{"a", "b"}},
		{"ended without replacement stays in place", []Result{fact("a", "u", "eats", 1, tp(dayN(30)), 0.9), ep}, true, []string{"a", "ep"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := currentFirst(tc.in, at, tc.keepStale)
			var ids []string
			for i, r := range got {
				ids = append(ids, r.ID)
				if i > 0 && r.Score > got[i-1].Score {
					t.Errorf("score %v at %d above %v before it", r.Score, i, got[i-1].Score)
				}
			}
			if len(ids) != len(tc.want) {
				t.Fatalf("currentFirst = %q, want %q", ids, tc.want)
			}
			for i := range ids {
				if ids[i] != tc.want[i] {
					t.Fatalf("currentFirst = %q, want %q", ids, tc.want)
				}
			}
		})
	}
}
