package rules

import (
	"testing"
	"time"
)

// TestNamedPossessorRoles: a role of a named person ("Luca's sister") is
// the person they have by that role.
func TestNamedPossessorRoles(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "moved", text: "My husband Luca is a chef. His sister Giulia lives in Milan. || Luca's sister just moved to Turin for a new job.",
			want: []triple{{s: "Giulia", p: "lives_in", o: "Turin"}}},
		{name: "job", text: "My husband Luca is a chef. || Luca's mum is a retired teacher.",
			want: []triple{{s: "Luca", p: "has_mum", o: "Luca's mum"}, {s: "Luca's mum", p: "works_as", o: "teacher", ended: true}}},
		{name: "unknown possessor", text: "Paris's mayor lives in Lyon.", never: []triple{{s: "Paris", p: "has_mayor", o: "Paris's mayor"}}},
		{name: "my role, adverb first", text: "My brother just moved to Leeds.", want: []triple{{s: "user's brother", p: "lives_in", o: "Leeds"}}},
	})
}

// TestNotWorkingAnymore: "not working at X anymore" ends the employer held
// under that name, and "joined a clinic called Y" after it is the new one.
func TestNotWorkingAnymore(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "ended and joined", text: "I'm a nurse at St Mary's. || I'm not working at St Mary's anymore, I joined a private clinic called Harbour Health.",
			want:  []triple{{s: "user", p: "works_at", o: "St Mary", ended: true}, {s: "user", p: "works_at", o: "Harbour Health"}},
			never: []triple{{s: "user", p: "is", o: "working at St Mary's"}}},
		{name: "not living in", text: "I live in Leeds. || I'm not living in Leeds anymore.", want: []triple{{s: "user", p: "lives_in", o: "Leeds", ended: true}}},
	})
}

// TestThirdPersonStudies: what a named person studies, where, and a change
// of field.
func TestThirdPersonStudies(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "studying at", text: "My daughter Ana is studying medicine at Porto.", want: []triple{{s: "Ana", p: "major", o: "medicine"}, {s: "Ana", p: "studies_at", o: "Porto"}}},
		{name: "switched", text: "My daughter Ana is studying medicine at Porto. || Ana switched from medicine to psychology, she is way happier.",
			want: []triple{{s: "Ana", p: "major", o: "medicine", ended: true}, {s: "Ana", p: "major", o: "psychology"}}},
		{name: "studying hard", text: "My son Leo is studying hard for his exams.", never: []triple{{s: "Leo", p: "major", o: "hard"}}},
	})
}

// TestPluralRoleLists: names listed after a plural role each hold it.
func TestPluralRoleLists(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "we have two kids", text: "We have two kids, Mia who is 7 and Leo who is 4.",
			want: []triple{{s: "user", p: "has_kid", o: "Mia"}, {s: "user", p: "has_kid", o: "Leo"}}},
		{name: "three cats", text: "I have three cats: Tom, Luna and Pip.",
			want: []triple{{s: "user", p: "has_cat", o: "Tom"}, {s: "user", p: "has_cat", o: "Luna"}, {s: "user", p: "has_cat", o: "Pip"}}},
		{name: "my parents", text: "My parents Raj and Meena live in Pune.",
			want: []triple{{s: "user", p: "has_parent", o: "Raj"}, {s: "user", p: "has_parent", o: "Meena"}}},
		{name: "the speaker in the list", text: "My colleagues Ben, Ola and I had lunch.",
			want: []triple{{s: "user", p: "has_colleague", o: "Ben"}}, never: []triple{{s: "user", p: "has_colleague", o: "I"}}},
		{name: "one name is no list", text: "My friends Rome trip was fun.", never: []triple{{s: "user", p: "has_friend", o: "Rome"}}},
	})
}

// TestQuitAndJoined: a named person's new employer said after the one they
// left; "started a new job" alone is no fact of its own.
func TestQuitAndJoined(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "joined called", text: "My partner Sam works at Google. || Sam quit Google and joined a startup called Finch.",
			want: []triple{{s: "Sam", p: "works_at", o: "Google", ended: true}, {s: "Sam", p: "works_at", o: "Finch"}}},
		{name: "moved to a city", text: "Bettina left Kestrel and moved to Berlin.", never: []triple{{s: "Bettina", p: "works_at", o: "Berlin"}}},
		{name: "started a new job", text: "Started a new job as a barista at Blue Bottle.",
			want: []triple{{s: "user", p: "works_at", o: "Blue Bottle"}}, never: []triple{{s: "user", p: "started", o: "new job"}}},
	})
}

// TestAcquiredAndNewPartner: a pet taken in by its breed, and a new partner
// named after a comma.
func TestAcquiredAndNewPartner(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "adopted by breed", text: "We adopted a rescue greyhound named Luna! She's 4.", want: []triple{{s: "user", p: "has_dog", o: "Luna"}}},
		{name: "someone else's", text: "My neighbour got a beagle named Rex.", never: []triple{{s: "user", p: "has_dog", o: "Rex"}}},
		{name: "dating someone new, name", text: "Also im dating someone new, mira, she's a nurse.", want: []triple{{s: "user", p: "dates", o: "Mira"}}},
		{name: "no name after the comma", text: "I'm seeing someone new, and it's going well.", never: []triple{{s: "user", p: "dates", o: "And"}}},
	})
}

// TestTeachEngagedAndCarGone: "I teach X at Y"; an engagement names a
// person "she" can then be; a car that died ends driving it.
func TestTeachEngagedAndCarGone(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "teach at", text: "I teach chemistry at Riverside High.",
			want: []triple{{s: "user", p: "works_as", o: "chemistry teacher"}, {s: "user", p: "works_at", o: "Riverside High"}}},
		{name: "teach whom", text: "I teach kids at Sunnyside Primary.", want: []triple{{s: "user", p: "works_as", o: "teacher"}}},
		{name: "they teach", text: "My wife Hana teaches maths at Oakfield.", want: []triple{{s: "Hana", p: "works_as", o: "maths teacher"}}},
		{name: "engaged, then she", text: "My best friend Tariq just got engaged to Hana, she's a vet in Leeds.",
			want: []triple{{s: "Tariq", p: "engaged_to", o: "Hana"}, {s: "Hana", p: "works_as", o: "vet"}}, never: []triple{{s: "Tariq", p: "works_as", o: "vet"}}},
		{name: "got married to", text: "I got married to Sam in June.", want: []triple{{s: "user", p: "married_to", o: "Sam"}}},
		{name: "married to someone's", text: "My friend Tom is married to Sarah's brother.", never: []triple{{s: "Tom", p: "married_to", o: "Sarah"}}},
		{name: "new car, old one died", text: "I drive an old Ford Fiesta. || We got a new car, a blue Kia Niro, the old Fiesta finally died.",
			want: []triple{{s: "user", p: "drives", o: "Ford Fiesta", ended: true}, {s: "user", p: "drives", o: "Kia Niro"}}},
		{name: "no car known", text: "The old Beetle died.", never: []triple{{s: "user", p: "drives", o: "Beetle", ended: true}}},
	})
}

// TestIntroduction: an introduction with age, job and home.
func TestIntroduction(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "introduction", text: "Hi! I'm Leila, I'm a 34 year old architect living in Lisbon with my husband Tom.",
			want:  []triple{{s: "user", p: "age", o: "34"}, {s: "user", p: "works_as", o: "architect"}, {s: "user", p: "lives_in", o: "Lisbon"}},
			never: []triple{{s: "user", p: "works_as", o: "34 year old architect"}}},
		{name: "based in", text: "I'm a nurse based in Leeds.", want: []triple{{s: "user", p: "works_as", o: "nurse"}, {s: "user", p: "lives_in", o: "Leeds"}}},
	})
}

// TestPersonalFacts: age, birthday, an allergy said as a noun, languages,
// and the age a named person turned.
func TestPersonalFacts(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "turned", text: "I just turned 40 and feel great.", want: []triple{{s: "user", p: "age", o: "40"}}},
		{name: "turned, feel old", text: "I just turned 40 and I feel old.", want: []triple{{s: "user", p: "age", o: "40"}}},
		{name: "minutes away", text: "I'm 5 minutes away from the station.", never: []triple{{s: "user", p: "age", o: "5"}}},
		{name: "birthday", text: "My birthday is March 3rd, can you remind me to book a table?", want: []triple{{s: "user", p: "birthday", o: "March 3rd"}}},
		{name: "noun allergy", text: "I have a severe peanut allergy so please check labels.", want: []triple{{s: "user", p: "allergic_to", o: "peanut"}}},
		{name: "languages", text: "I speak French and Arabic at home.", want: []triple{{s: "user", p: "speaks", o: "French"}, {s: "user", p: "speaks", o: "Arabic"}}},
		{name: "son turned", text: "My son Leo turned 5 last week.", want: []triple{{s: "Leo", p: "age", o: "5"}}},
	})
}
