package rules

import (
	"testing"
	"time"
)

// TestTextedUpdates covers updates said the way people text: a home said
// as "we're in X now" after a move or by what is rented, a move "up to"
// a place, a new partner named after "seeing someone", a new job after
// "switched jobs", a lower-case employer joined "last month as" a title,
// and a sport said by its verb and how often.
func TestTextedUpdates(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "in X now after a move", text: "big change since january: we moved! we're in Stavanger now", want: []triple{{s: "user", p: "lives_in", o: "Stavanger"}}},
		{name: "no home from in X now alone", text: "I'm in London now, back Friday.", never: []triple{{s: "user", p: "lives_in", o: "London"}}},
		{name: "renting", text: "I finally moved — I'm now renting a one-bedroom in Lekki with a friend.", want: []triple{{s: "user", p: "lives_in", o: "Lekki"}}},
		{name: "sharing", text: "I moved out of the dorm in August. Now I share a house in Sannomiya with two friends.", want: []triple{{s: "user", p: "lives_in", o: "Sannomiya"}}},
		{name: "rented flat after the city", text: "I live in Berlin btw, we share a flat in Neukölln", want: []triple{{s: "user", p: "lives_in", o: "Berlin"}}, never: []triple{{s: "user", p: "lives_in", o: "Neukölln"}}},
		{name: "moved up to", text: "Big changes. I moved up to Prescott to be near the grandkids.", want: []triple{{s: "user", p: "lives_in", o: "Prescott"}}},
		{name: "no move from a promotion", text: "I moved up to a senior role.", never: []triple{{s: "user", p: "lives_in", o: "a senior role"}}},
		{name: "seeing someone, name", text: "And I am seeing someone, Nicolás, he is a fishing boat captain.", want: []triple{{s: "user", p: "dates", o: "Nicolás"}}},
		{name: "seeing someone new!! name", text: "and I'm seeing someone new!! Omar, we met at a trivia night.", want: []triple{{s: "user", p: "dates", o: "Omar"}}},
		{name: "switched jobs, now at", text: "i switched jobs, now at a game studio in kyoto", want: []triple{{s: "user", p: "works_at", o: "game studio in Kyoto"}}},
		{name: "joined last month as", text: "I joined Razorpay last month as a backend engineer.", want: []triple{{s: "user", p: "works_at", o: "Razorpay"}, {s: "user", p: "works_as", o: "backend engineer"}}},
		{name: "lower-case employer joined", text: "rent 28k for a 1bhk, i work at flipkart. || left flipkart, joined razorpay last month as sde-2.", want: []triple{{s: "user", p: "works_at", o: "Flipkart", ended: true}, {s: "user", p: "works_at", o: "Razorpay"}}},
		{name: "sport by its verb", text: "i boulder like 3x a week here so a week off would kill me", want: []triple{{s: "user", p: "does", o: "bouldering"}}},
		{name: "swim twice a week", text: "I swim twice a week at the leisure centre.", want: []triple{{s: "user", p: "does", o: "swimming"}}},
		{name: "no sport without how often", text: "I run the team at work.", never: []triple{{s: "user", p: "does", o: "running"}}},
		{name: "filler before a left-out I", text: "ok moved to Leeds finally, rent is 900 a month", want: []triple{{s: "user", p: "lives_in", o: "Leeds"}}},
		{name: "renting in", text: "We relocated in March. We're renting in Croydon.", want: []triple{{s: "user", p: "lives_in", o: "Croydon"}}},
		{name: "my new phone", text: "My new iPhone 13 (refurbished) is the only gift I'm getting myself lol.", want: []triple{{s: "user", p: "uses_phone", o: "iPhone 13"}}},
		{name: "have a new job at", text: "I have a new job at Nordwerk, product design for a mobility app.", want: []triple{{s: "user", p: "works_at", o: "Nordwerk"}}},
		{name: "name then another's role", text: "Sindre (my partner) says he's a ferry mechanic. || my sister Ingrid is up in Tromsø with Håkon, her husband, he's a fisheries biologist", want: []triple{{s: "Ingrid", p: "has_husband", o: "Håkon"}, {s: "Håkon", p: "works_as", o: "fisheries biologist"}}, never: []triple{{s: "Sindre", p: "works_as", o: "fisheries biologist"}}},
		{name: "named person joined an employer", text: "We moved last week, Arjun joined Swiggy last month and the office is closer this side.", want: []triple{{s: "Arjun", p: "works_at", o: "Swiggy"}}},
		{name: "no employer joined outside work", text: "My friend Kari joined Tinder last week lol.", never: []triple{{s: "Kari", p: "works_at", o: "Tinder"}}},
		{name: "business partner", text: "also important: Marisol, my business partner at the clinic, offered me to take July lighter", want: []triple{{s: "user", p: "has_business_partner", o: "Marisol"}}},
		{name: "as a title, I", text: "As a civil engineer, I have worked on many roads.", want: []triple{{s: "user", p: "works_as", o: "civil engineer"}}},
		{name: "no title from as a mother", text: "As a mother, I worry.", never: []triple{{s: "user", p: "works_as", o: "mother"}}},
		{name: "my job as", text: "my job as a paramedic is stressful", want: []triple{{s: "user", p: "works_as", o: "paramedic"}}},
		{name: "by trade", text: "I'm an electrician by trade", want: []triple{{s: "user", p: "works_as", o: "electrician"}}},
		{name: "I'm teaching", text: "I'm teaching 7th grade science at Westbury Middle School now.", want: []triple{{s: "user", p: "works_as", o: "7th grade science teacher"}, {s: "user", p: "works_at", o: "Westbury Middle School"}}},
		{name: "a car bought with the I left out", text: "Sold the old car, got a Toyota Corolla.", want: []triple{{s: "user", p: "drives", o: "Toyota Corolla"}}},
		{name: "moved out of into", text: "AND i moved out of halls into a house in Hyde Park with Hannah and 3 others.", want: []triple{{s: "user", p: "lives_in", o: "Hyde Park"}}},
		{name: "that's our breed", text: "Bran — that's our sheepdog, the best dog we ever had.", want: []triple{{s: "user", p: "has_dog", o: "Bran"}, {s: "Bran", p: "breed", o: "sheepdog"}}},
		{name: "who's my role", text: "Nora, who's my cousin, is coming too.", want: []triple{{s: "user", p: "has_cousin", o: "Nora"}}},
		{name: "no role from a place", text: "Paris, that's my favourite city.", never: []triple{{s: "user", p: "has_city", o: "Paris"}}},
		{name: "lower-case visitor", text: "And sneha is coming from Bengaluru for christmas, help me plan a day in Pune for her.", want: []triple{{s: "Sneha", p: "lives_in", o: "Bengaluru"}}},
	})
}
