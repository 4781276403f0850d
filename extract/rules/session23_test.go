package rules

import (
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestEverydayStatements covers short first-person statements, named
// partners and pets, teaching, band parts, vehicles by year and homes said
// with "these days", and a stored role's gender in a later session.
func TestEverydayStatements(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "short diet", text: "I'm vegan.", want: []triple{{s: "user", p: "diet", o: "vegan"}}},
		{name: "short age", text: "I'm 29.", want: []triple{{s: "user", p: "age", o: "29"}}},
		{name: "dating", text: "I'm dating Tom.", want: []triple{{s: "user", p: "dates", o: "Tom"}}},
		{name: "seeing for a year", text: "I've been seeing Ben for a year.", want: []triple{{s: "user", p: "dates", o: "Ben"}}},
		{name: "seeing a guy called", text: "Tom and I split, I'm seeing a guy called Ben now.", want: []triple{{s: "user", p: "dates", o: "Ben"}}},
		{name: "seeing is a meeting", text: "I'm seeing Tom tomorrow for lunch.", never: []triple{{s: "user", p: "dates", o: "Tom"}}},
		{name: "seeing a doctor", text: "I'm seeing Dr. Patel next week.", never: []triple{{s: "user", p: "dates", o: "Dr. Patel"}}},
		{name: "pet named after a comma", text: "we adopted a little kitten, Pimienta, black and white", want: []triple{{s: "user", p: "has_kitten", o: "Pimienta"}}},
		{name: "pet named after now", text: "we have a puppy now, Lotta, she sleeps inside", want: []triple{{s: "user", p: "has_puppy", o: "Lotta"}}},
		{name: "pet not named by a day", text: "We got a new puppy, Monday was crazy.", never: []triple{{s: "user", p: "has_puppy", o: "Monday"}}},
		{name: "car is", text: "my new car is a Skoda Octavia", want: []triple{{s: "user", p: "drives", o: "Skoda Octavia"}}},
		{name: "car by year", text: "I got a 2016 silverado w the ladder rack", want: []triple{{s: "user", p: "drives", o: "2016 silverado"}}},
		{name: "no car by year", text: "We bought a 2019 bottle of wine", never: []triple{{s: "user", p: "drives", o: "2019 bottle"}}},
		{name: "ended up moving", text: "We ended up moving to York after all.", want: []triple{{s: "user", p: "lives_in", o: "York"}}},
		{name: "in a city these days", text: "I'm in Marseille these days.", want: []triple{{s: "user", p: "lives_in", o: "Marseille"}}},
		{name: "in a city now is no home", text: "I'm in London now for a conference", never: []triple{{s: "user", p: "lives_in", o: "London"}}},
		{name: "teaches a subject", text: "My girlfriend Tamsin teaches yoga and eats like a bird.", want: []triple{{s: "Tamsin", p: "works_as", o: "yoga teacher"}}},
		{name: "who teaches", text: "my son Florian, who teaches physics at a Gymnasium in Linz, thinks so", want: []triple{{s: "Florian", p: "works_as", o: "physics teacher"}}},
		{name: "teaches whom", text: "Tamsin teaches me a lot.", never: []triple{{s: "Tamsin", p: "works_as", o: "me teacher"}}},
		{name: "the title", text: "I'm the vice principal now!", want: []triple{{s: "user", p: "works_as", o: "vice principal"}}},
		{name: "band parts", text: "I'm on bass, dougie sings, my flatmate Euan is on drums.", want: []triple{{s: "user", p: "plays", o: "bass"}, {s: "Euan", p: "plays", o: "drums"}}},
		{name: "on holiday is no part", text: "I'm on holiday", never: []triple{{s: "user", p: "plays", o: "holiday"}}},
		{name: "activities", text: "I go bouldering twice a week. || I do yoga on mondays.", want: []triple{{s: "user", p: "does", o: "bouldering"}, {s: "user", p: "does", o: "yoga"}}},
		{name: "taken up", text: "I quit swimming and I've taken up Nordic walking.", want: []triple{{s: "user", p: "does", o: "Nordic walking"}}},
		{name: "nothing is no activity", text: "Honestly I do nothing all weekend.", never: []triple{{s: "user", p: "does", o: "nothing"}}},
	})
}

// TestStoredRoleGender: a later session's "he" skips a person whose stored
// role says she is a woman ("user has_wife Nino").
func TestStoredRoleGender(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	ex := extractMsgsWith(t, "My brother-in-law Levan, Nino's brother, will bring copper sulfate; he is a pilot with Georgian Airways.", at,
		[]*lore.Fact{{Subject: "user", Predicate: "has_wife", Object: "Nino"}}, []string{"Nino"})
	checkTriples(t, ex, []triple{{s: "Levan", p: "works_as", o: "pilot"}}, []triple{{s: "Nino", p: "works_as", o: "pilot"}})
}
