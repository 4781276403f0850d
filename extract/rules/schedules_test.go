package rules

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestSchedules: a recurring weekday is a schedule; moving it ends the old
// day of the same thing and of nothing else.
func TestSchedules(t *testing.T) {
	at := time.Date(2024, 9, 2, 9, 0, 0, 0, time.UTC)
	held := []*lore.Fact{
		{Subject: "user", Predicate: "schedule", Object: "yoga class on Mondays"},
		{Subject: "user", Predicate: "schedule", Object: "pottery class on Wednesdays"},
		{Subject: "user", Predicate: "schedule", Object: "bakery closed on Sunday"},
	}
	runTripleCases(t, at, []tripleCase{
		{name: "are on", text: "My late shifts are on Fridays so I can't do dinner then",
			want: []triple{{s: "user", p: "schedule", o: "late shifts on Fridays"}}},
		{name: "verb every", text: "I play chess every Thursday at the library",
			want: []triple{{s: "user", p: "schedule", o: "chess on Thursday"}}},
		{name: "day first", text: "Saturdays I have swimming with the kids",
			want: []triple{{s: "user", p: "schedule", o: "swimming on Saturdays"}}},
		{name: "one occasion", text: "I have a dentist appointment on Friday",
			never: []triple{{s: "user", p: "schedule", o: "dentist appointment on Friday"}}},
		{name: "moved", text: "Big news, we moved the yoga class to Tuesdays because the hall is booked", cands: held,
			want:  []triple{{s: "user", p: "schedule", o: "yoga class on Mondays", ended: true}, {s: "user", p: "schedule", o: "yoga class on Tuesdays"}},
			never: []triple{{s: "user", p: "schedule", o: "pottery class on Wednesdays"}}},
		{name: "moves to", text: "The new rota means my yoga moves to Thursday evenings", cands: held,
			want: []triple{{s: "user", p: "schedule", o: "yoga class on Mondays", ended: true}, {s: "user", p: "schedule", o: "yoga on Thursday evenings"}}},
		{name: "not the old day", text: "We are now closed on Monday, not Sunday, because Sundays got busy", cands: held,
			want: []triple{{s: "user", p: "schedule", o: "bakery closed on Sunday", ended: true}, {s: "user", p: "schedule", o: "bakery closed on Monday"}}},
		{name: "auxiliary have", text: "I have been having trouble sleeping on Sundays and I have started meal prepping on Sundays",
			never: []triple{{s: "user", p: "schedule", o: "been having trouble sleeping on Sundays"}, {s: "user", p: "schedule", o: "started meal prepping on Sundays"}}},
		{name: "someone else's", text: "My son's practice is on Tuesdays",
			never: []triple{{s: "user", p: "schedule", o: "son's practice on Tuesdays"}}},
	})
}
