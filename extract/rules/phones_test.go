package rules

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestPhones: the phone a speaker uses is one at a time; a new one, a gift,
// a trade or a dead phone change it.
func TestPhones(t *testing.T) {
	at := time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC)
	held := []*lore.Fact{{Subject: "user", Predicate: "uses_phone", Object: "Moto G"}}
	runTripleCases(t, at, []tripleCase{
		{name: "bought", text: "I finally bought a refurbished Pixel 7a last week, the battery is great",
			want: []triple{{s: "user", p: "uses_phone", o: "Pixel 7a"}}},
		{name: "my phone is", text: "My phone is an old Redmi Note 9 so the app is slow",
			want: []triple{{s: "user", p: "uses_phone", o: "Redmi Note 9"}}},
		{name: "lower case model", text: "ok so i got a galaxy a54 in the end, cheaper than the iphone",
			want:  []triple{{s: "user", p: "uses_phone", o: "galaxy a54"}},
			never: []triple{{s: "user", p: "uses_phone", o: "iphone"}}},
		{name: "gift", text: "My husband gave me an iPhone 13 Pro for my birthday",
			want: []triple{{s: "user", p: "uses_phone", o: "iPhone 13 Pro"}}},
		{name: "died then replaced", text: "my moto g finally died, replaced it w a nokia x30. how do i copy my contacts?",
			cands: held,
			want:  []triple{{s: "user", p: "uses_phone", o: "Moto G", ended: true}, {s: "user", p: "uses_phone", o: "nokia x30"}}},
		{name: "sold", text: "I sold my Moto G to a colleague", cands: held,
			want: []triple{{s: "user", p: "uses_phone", o: "Moto G", ended: true}}},
		{name: "not a phone", text: "I have a pixel art class on Mondays and we watched Galaxy Quest",
			never: []triple{{s: "user", p: "uses_phone", o: "pixel"}, {s: "user", p: "uses_phone", o: "pixel art"}}},
	})
}
