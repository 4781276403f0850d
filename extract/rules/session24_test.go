package rules

import (
	"testing"
	"time"
)

// TestPassingMentions covers facts said in passing by non-native and
// casual writers: moves said with "out of" or "moved in together", homes
// with "live out in", roles in brackets, titles with an adverb or after a
// lower-case name, past titles, a course stopped, and a comma that opens a
// new clause after a role.
func TestPassingMentions(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "moved out of", text: "Big changes. We moved out of Madrid to Alcala de Henares, rent is cheaper.", want: []triple{{s: "user", p: "lives_in", o: "Madrid", ended: true}, {s: "user", p: "lives_in", o: "Alcala de Henares"}}},
		{name: "moved in together", text: "Julien and I moved in together in Verdun, near the canal.", want: []triple{{s: "user", p: "lives_in", o: "Verdun"}}},
		{name: "live out in", text: "We live out in Fana and the cat still hunts mice.", want: []triple{{s: "user", p: "lives_in", o: "Fana"}}},
		{name: "shifted", text: "My sister Priya shifted to Bengaluru last year.", want: []triple{{s: "Priya", p: "lives_in", o: "Bengaluru"}}},
		{name: "role in brackets", text: "Also Arjun jiju (Priya's husband) is organising.", want: []triple{{s: "Priya", p: "has_husband", o: "Arjun"}}},
		{name: "pet in brackets", text: "Gribouille (the cat) will steal the parmesan.", want: []triple{{s: "user", p: "has_cat", o: "Gribouille"}}},
		{name: "no role in brackets for the", text: "Bob (the plumber) came round.", never: []triple{{s: "user", p: "has_plumber", o: "Bob"}}},
		{name: "title with adverb", text: "I'm literally a UX designer and I can't make a recipe card.", want: []triple{{s: "user", p: "works_as", o: "ux designer"}}},
		{name: "lower-case intro", text: "hiii im aiko, 1st year pharmacy student in osaka!!", want: []triple{{s: "user", p: "major", o: "pharmacy"}}},
		{name: "past title", text: "I was a teacher of mathematics for 38 years, so grammar I understand.", want: []triple{{s: "user", p: "works_as", o: "teacher of mathematics", ended: true}}},
		{name: "past title until", text: "I worked as a welder until 2019.", want: []triple{{s: "user", p: "works_as", o: "welder", ended: true}}},
		{name: "no past title", text: "I was a kid for 10 years.", never: []triple{{s: "user", p: "works_as", o: "kid", ended: true}}},
		{name: "course stopped", text: "I have started an Italian course at Folkeuniversitetet. || I have stopped the Italian course, it went too fast.", want: []triple{{s: "user", p: "major", o: "italian", ended: true}}},
		{name: "comma opens a clause", text: "My sister Priya's baby shower is in Chennai. || Not Chennai, sorry. She shifted to Bengaluru with her husband, Chennai was only where she studied.", never: []triple{{s: "Priya", p: "has_husband", o: "Chennai"}}},
		{name: "comma names the role", text: "My sister, Ana is a nurse.", want: []triple{{s: "user", p: "has_sister", o: "Ana"}}},
		{name: "hired at", text: "big news: i got hired at Atelier Brume, started monday.", want: []triple{{s: "user", p: "works_at", o: "Atelier Brume"}}},
		{name: "title kept on a move", text: "i'm a graphic designer at Studio Pivot. || big news: i got hired at Atelier Brume, left Studio Pivot.", want: []triple{{s: "user", p: "works_at", o: "Studio Pivot", ended: true}, {s: "user", p: "works_as", o: "graphic designer"}}},
		{name: "title ends when only left", text: "I'm a nurse at Ridge Hospital. || I left Ridge Hospital last week.", want: []triple{{s: "user", p: "works_as", o: "nurse", ended: true}}},
		{name: "school as a lower-case acronym", text: "i'm a 2nd year chem student at ntu and i have 4 exams", want: []triple{{s: "user", p: "studies_at", o: "NTU"}}},
		{name: "no school from uni", text: "I'm a student at uni.", never: []triple{{s: "user", p: "studies_at", o: "UNI"}}},
		{name: "title after a name that is none", text: "Hi, I am Rosa, I teach fourth grade at Escuela Benito Juárez here in Guadalajara.", want: []triple{{s: "user", p: "works_as", o: "fourth grade teacher"}, {s: "user", p: "works_at", o: "Escuela Benito Juárez"}}},
		{name: "second I am", text: "No no, I am not in the classroom anymore, I am the vice principal now!", want: []triple{{s: "user", p: "works_as", o: "vice principal"}}},
		{name: "offered a position", text: "They offered me a position at Colegio Las Fuentes, as vice principal!", want: []triple{{s: "user", p: "works_at", o: "Colegio Las Fuentes"}, {s: "user", p: "works_as", o: "vice principal"}}},
		{name: "title note", text: "GOT THE JOB!!! junior UX designer at Takealot 🎉 starting in september.", want: []triple{{s: "user", p: "works_as", o: "junior ux designer"}, {s: "user", p: "works_at", o: "Takealot"}}},
		{name: "no title from a meal", text: "Dinner at Nopa tonight.", never: []triple{{s: "user", p: "works_at", o: "Nopa"}}},
		{name: "no title from a clause", text: "Nurse at Ridge was rude to me.", never: []triple{{s: "user", p: "works_as", o: "nurse"}}},
		{name: "switched major", text: "I'm a 2nd year marine bio student at JCU. || 1) switched to enviro sci, marine bio had way too much chem for me.", want: []triple{{s: "user", p: "major", o: "marine bio", ended: true}, {s: "user", p: "major", o: "enviro sci"}}},
		{name: "switched without the old value", text: "I'm a 2nd year marine bio student at JCU. || switched to decaf, finally.", never: []triple{{s: "user", p: "major", o: "decaf"}}},
		{name: "on pause", text: "I go bouldering every week. || bouldering is on pause since my shoulder thing.", want: []triple{{s: "user", p: "does", o: "bouldering", ended: true}}},
		{name: "student of a field", text: "I am third year student of veterinary at university in Ulaanbaatar.", want: []triple{{s: "user", p: "major", o: "veterinary"}}},
		{name: "doing a field at a school", text: "im doing marine bio at uq, first year", want: []triple{{s: "user", p: "major", o: "marine bio"}, {s: "user", p: "studies_at", o: "UQ"}}},
		{name: "named person studying", text: "My housemate Priya is doing physio so she knows anatomy.", want: []triple{{s: "Priya", p: "major", o: "physio"}}, never: []triple{{s: "Priya", p: "works_as", o: "doing physio"}}},
		{name: "doing yoga is no field", text: "I'm doing yoga at the gym.", never: []triple{{s: "user", p: "major", o: "yoga"}}},
		{name: "workplace kind then name", text: "i got a part time job at a bubble tea shop, Chatime on nicolson st.", want: []triple{{s: "user", p: "works_at", o: "Chatime"}}},
		{name: "quit a lower-case employer with a date", text: "i got a part time job at a bubble tea shop, Chatime on nicolson st. || i quit chatime over christmas.", want: []triple{{s: "user", p: "works_at", o: "Chatime", ended: true}}},
		{name: "first week at a school", text: "first week at McGill!! studying mechanical engineering, send coffee", want: []triple{{s: "user", p: "studies_at", o: "McGill"}}},
		{name: "first day at an employer", text: "my first day at Stripe went fine.", want: []triple{{s: "user", p: "works_at", o: "Stripe"}}},
		{name: "someone else's first day", text: "Sam's first day at Google was fun.", never: []triple{{s: "user", p: "works_at", o: "Google"}}},
		{name: "medication note", text: "Hello. Diabetes type 2. On metformin. What breakfast keeps blood sugar stable?", want: []triple{{s: "user", p: "takes_medication", o: "metformin"}}},
		{name: "on a medication", text: "The doctor put me on ramipril last week.", want: []triple{{s: "user", p: "takes_medication", o: "ramipril"}}},
		{name: "medication stopped", text: "I'm on sertraline since March. || I stopped taking sertraline.", want: []triple{{s: "user", p: "takes_medication", o: "sertraline", ended: true}}},
		{name: "on the bus is no medication", text: "On the bus now.", never: []triple{{s: "user", p: "takes_medication", o: "the bus"}}},
		{name: "runs a business", text: "i run a small roofing crew out of lubbock, 4 guys.", want: []triple{{s: "user", p: "works_as", o: "runs a small roofing crew"}}},
		{name: "named person opened a business", text: "My brother Kofi runs a phone repair shop in Kumasi.", want: []triple{{s: "Kofi", p: "works_as", o: "runs a phone repair shop"}}},
		{name: "a business wished for", text: "I want to open a bakery someday.", never: []triple{{s: "user", p: "works_as", o: "runs a bakery"}}},
		{name: "keys to a flat", text: "finally got the keys to the flat in Porto!", want: []triple{{s: "user", p: "lives_in", o: "Porto"}}},
		{name: "moved into a place", text: "Just moved into a new place in Brooklyn.", want: []triple{{s: "user", p: "lives_in", o: "Brooklyn"}}},
		{name: "bought a house", text: "we bought a house in Galway.", want: []triple{{s: "user", p: "lives_in", o: "Galway"}}},
		{name: "now living in", text: "I'm now living in Lisbon.", want: []triple{{s: "user", p: "lives_in", o: "Lisbon"}}},
		{name: "back for good", text: "We're back in Toronto for good.", want: []triple{{s: "user", p: "lives_in", o: "Toronto"}}},
		{name: "been at an employer", text: "I've been at Spotify for two months now.", want: []triple{{s: "user", p: "works_at", o: "Spotify"}}},
		{name: "new job note", text: "New job at Accenture starts Monday.", want: []triple{{s: "user", p: "works_at", o: "Accenture"}}},
		{name: "another's new job", text: "his new job at Google is great.", never: []triple{{s: "user", p: "works_at", o: "Google"}}},
		{name: "gave up the car", text: "I drive a Honda Civic. || gave up the car, it was too expensive.", want: []triple{{s: "user", p: "drives", o: "Honda Civic", ended: true}}},
		{name: "unnamed pet died", text: "We have a cat, Mochi. || the cat passed in March.", want: []triple{{s: "user", p: "has_cat", o: "Mochi", ended: true}}},
		{name: "got married", text: "Tom and I got married last month.", want: []triple{{s: "user", p: "married_to", o: "Tom"}}},
		{name: "engaged is not married", text: "I'm engaged to Priya now!", want: []triple{{s: "user", p: "engaged_to", o: "Priya"}}, never: []triple{{s: "user", p: "married_to", o: "Priya"}}},
		{name: "role broke up", text: "My girlfriend Ana is great. || My girlfriend and I split up.", want: []triple{{s: "user", p: "has_girlfriend", o: "Ana", ended: true}}},
		{name: "single again", text: "I'm dating Leo. || I'm single again.", want: []triple{{s: "user", p: "dates", o: "Leo", ended: true}}},
		{name: "no longer together", text: "My girlfriend Sara is a nurse. || Sara and I are no longer together.", want: []triple{{s: "user", p: "dates", o: "Sara", ended: true}}},
		{name: "split outings is no break-up", text: "my babe tolu and i split outings, shes a pharmacist", never: []triple{{s: "user", p: "dates", o: "Tolu", ended: true}}},
		{name: "pet then breed called", text: "We got a puppy, a beagle called Max.", want: []triple{{s: "user", p: "has_dog", o: "Max"}}},
		{name: "diet now", text: "I'm vegetarian. || I've started eating fish again, so pescatarian now.", want: []triple{{s: "user", p: "diet", o: "pescatarian"}}},
		{name: "activity no longer", text: "I took up running in May. || I don't run anymore, knees.", want: []triple{{s: "user", p: "does", o: "running", ended: true}}},
		{name: "retired", text: "I work at Shopify as a designer. || I'm retired now.", want: []triple{{s: "user", p: "works_at", o: "Shopify", ended: true}, {s: "user", p: "works_as", o: "designer", ended: true}}},
		{name: "laid off", text: "I work at Acme. || I got laid off last week.", want: []triple{{s: "user", p: "works_at", o: "Acme", ended: true}}},
		{name: "retired parents", text: "I work at Acme. || If I were retired I'd travel.", want: []triple{{s: "user", p: "works_at", o: "Acme"}}},
		{name: "sold car without a stored car", text: "I sold the car.", never: []triple{{s: "user", p: "drives", o: "", ended: true}}},
	})
}

// TestGroupsHomesAndBreeds covers homes of groups named by a plural role,
// a home in a relative clause (with "she" meaning a role named in a
// possessive), and breeds beyond the first list.
func TestGroupsHomesAndBreeds(t *testing.T) {
	at := time.Date(2024, 5, 2, 9, 0, 0, 0, time.UTC)
	runTripleCases(t, at, []tripleCase{
		{name: "parents live", text: "My parents live in Nagpur.", want: []triple{{s: "user", p: "has_parent", o: "user's parents"}, {s: "user's parents", p: "lives_in", o: "Nagpur"}}},
		{name: "parents, they are in", text: "my parents 30th anniversary is coming, they are in Nagpur.", want: []triple{{s: "user's parents", p: "lives_in", o: "Nagpur"}}},
		{name: "kids in bed", text: "my kids are in bed already.", never: []triple{{s: "user's kids", p: "lives_in", o: "bed"}}},
		{name: "where my sister lives", text: "The party is in Leeds, where my sister lives.", want: []triple{{s: "user's sister", p: "lives_in", o: "Leeds"}}},
		{name: "where she lives", text: "I need help with a speech for my mother's 70th birthday. It will be held in Kumasi, where she lives.", want: []triple{{s: "user's mother", p: "lives_in", o: "Kumasi"}}},
		{name: "breed", text: "Biscuit is our basset hound.", want: []triple{{s: "user", p: "has_dog", o: "Biscuit"}, {s: "Biscuit", p: "breed", o: "basset hound"}}},
		{name: "bare breed", text: "Walk the dog after. Bamse, old elkhound.", want: []triple{{s: "Bamse", p: "breed", o: "old elkhound"}}},
		{name: "moved up there", text: "My daughter Tammy lives in Amarillo. || Tammy got a job offer in Denver and they moved up there in August.", want: []triple{{s: "Tammy", p: "lives_in", o: "Denver"}}},
		{name: "nationality then town", text: "No, I'm not from Spain, I am Argentinian, from Rosario.", want: []triple{{s: "user", p: "comes_from", o: "Rosario"}}, never: []triple{{s: "user", p: "comes_from", o: "Spain"}}},
		{name: "named person dating", text: "Hana has been dating Kenji for a year.", want: []triple{{s: "Hana", p: "dates", o: "Kenji"}}},
		{name: "named person going out with", text: "My daughter Aoife is going out with a lad called Ravi now.", want: []triple{{s: "Aoife", p: "dates", o: "Ravi"}}},
		{name: "seeing a doctor is no partner", text: "My brother Tom is seeing Dr. Patel tomorrow.", never: []triple{{s: "Tom", p: "dates", o: "Dr. Patel"}}},
		{name: "named person's place", text: "Organising a reunion at Aunty Mere's place in Ōpōtiki for Labour weekend.", want: []triple{{s: "Mere", p: "lives_in", o: "Ōpōtiki"}}},
		{name: "pupil's school", text: "My son Kofi has maths homework. Kofi is in year 9 at Roundhay School.", want: []triple{{s: "Kofi", p: "studies_at", o: "Roundhay School"}}},
		{name: "word name before a verb", text: "also my wife crystal says put a line about hail damage.", want: []triple{{s: "user", p: "has_wife", o: "Crystal"}}},
		{name: "word after a role is no name", text: "my son will come later. || my mom always says hi.", never: []triple{{s: "user", p: "has_son", o: "Will"}, {s: "user", p: "has_mom", o: "Always"}}},
		{name: "pronoun breed after a pet's name", text: "My husband Earl is retired. || Saturday I've got to run Biscuit to the groomer, he's our basset hound and he rolls in everything.", want: []triple{{s: "user", p: "has_dog", o: "Biscuit"}, {s: "Biscuit", p: "breed", o: "basset hound"}}, never: []triple{{s: "Earl", p: "breed", o: "basset hound"}}},
		{name: "unnamed role's employer", text: "my brother got a job at Amazon.", want: []triple{{s: "user's brother", p: "works_at", o: "Amazon"}}},
		{name: "named person in a city now", text: "My sister Emma lives in Rome. || Emma's in Milan now.", want: []triple{{s: "Emma", p: "lives_in", o: "Milan"}}},
		{name: "in a city for work is no home", text: "My sister Emma lives in Rome. || Emma is in Paris for work.", never: []triple{{s: "Emma", p: "lives_in", o: "Paris"}}},
		{name: "relative's baby", text: "My sister Emma lives in Rome. || my sister had a baby girl, Mia.", want: []triple{{s: "Emma", p: "has_daughter", o: "Mia"}}},
		{name: "own baby", text: "we had a baby boy named Theo.", want: []triple{{s: "user", p: "has_son", o: "Theo"}}},
		{name: "named person's car", text: "My brother Sam drives a Jeep Wrangler. || Sam sold the Jeep and got a Ford Ranger.", want: []triple{{s: "Sam", p: "drives", o: "Jeep Wrangler"}, {s: "Sam", p: "drives", o: "Ford Ranger"}}},
		{name: "another's pet died", text: "My neighbour Liz has a golden retriever named Bear. || Liz's dog Bear died.", want: []triple{{s: "Liz", p: "has_dog", o: "Bear", ended: true}}},
		{name: "and became", text: "my wife Jo is a nurse. || Jo quit nursing and became a teacher.", want: []triple{{s: "Jo", p: "works_as", o: "teacher"}}},
		{name: "have a new role holder", text: "I have a new manager, Priya.", want: []triple{{s: "user", p: "has_manager", o: "Priya"}}},
		{name: "flatmate moved out", text: "My flatmate Ben is messy. || my flatmate moved out.", want: []triple{{s: "user", p: "has_flatmate", o: "Ben", ended: true}}},
		{name: "child's school", text: "My daughter started uni at Leeds. || my son goes to Roundhay School.", want: []triple{{s: "user's daughter", p: "studies_at", o: "Leeds"}, {s: "user's son", p: "studies_at", o: "Roundhay School"}}},
		{name: "lives with someone in", text: "my son lives with his mum in Bristol.", want: []triple{{s: "user's son", p: "lives_in", o: "Bristol"}}},
		{name: "known relative's partner", text: "My son Leo is 24. || my son's girlfriend Ana works at Zara.", want: []triple{{s: "Leo", p: "has_girlfriend", o: "Ana"}}},
		{name: "relative's pet", text: "my sister's dog is called Rex.", want: []triple{{s: "user's sister", p: "has_dog", o: "Rex"}}},
		{name: "unknown relative's person", text: "my son's girlfriend Ana works at Zara.", never: []triple{{s: "user's son", p: "has_girlfriend", o: "Ana"}}},
		{name: "relative of a relative", text: "my wife's brother lives in Cork. || my husband's mum is a retired nurse.", want: []triple{{s: "user's wife's brother", p: "lives_in", o: "Cork"}, {s: "user's husband's mum", p: "works_as", o: "nurse", ended: true}}},
		{name: "no bare breed mid-sentence", text: "Max, lab results came back fine.", never: []triple{{s: "Max", p: "breed", o: "lab"}}},
	})
}
