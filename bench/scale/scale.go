// Package scale generates deterministic synthetic memory — users, their
// entities, facts and the chat turns the facts came from — and loads it into
// any lore.Store and lore.Index, so the scale benchmarks in this package run
// the same data on every backend (see docs/benchmarks.md).
//
// Everything a Spec generates follows from its seed: the same Spec gives the
// same names, sentences, times and queries on every run and machine, which is
// what lets a built database be cached and two backends be compared.
package scale

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lore-memory/lore"
)

// Spec says what to generate: Users users of FactsPerUser facts each.
type Spec struct {
	Users        int
	FactsPerUser int
	Seed         uint64
}

// Key names the data a Spec generates, for cache files and tenants. It
// carries the generator's version, so a change to the generator never
// reuses data built by an older one.
func (s Spec) Key() string {
	return fmt.Sprintf("v1-u%d-f%d-s%d", s.Users, s.FactsPerUser, s.Seed)
}

// Facts is the total number of facts the Spec generates.
func (s Spec) Facts() int { return s.Users * s.FactsPerUser }

// UserID is the id of the i-th user.
func UserID(i int) string { return fmt.Sprintf("user-%05d", i) }

// baseTime is the time of the first generated turn; later turns follow a
// minute apart.
var baseTime = time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)

// Entity is a generated entity, referred to by facts by its index.
type Entity struct {
	Name string
	Type string
}

// Fact is a generated subject-predicate-object statement between entities
// of one user, and the turn (Episode index) that stated it.
type Fact struct {
	Subject, Object int // indexes into User.Entities
	Predicate       string
	Text            string
	Episode         int
}

// Episode is a generated chat turn stating one or two facts.
type Episode struct {
	Content    string
	OccurredAt time.Time
}

// User is one user's generated memory and the queries to ask of it.
type User struct {
	ID       string
	Entities []Entity // Entities[0] is the user themself
	Facts    []Fact
	Episodes []Episode
	Queries  []string
}

// Word lists. Names are combined from them so that a user of thousands of
// entities gets distinct, realistic-looking names whose words overlap, as
// real names do.
var (
	firstNames = strings.Fields("Nora Liam Emma Oliver Ava Noah Mia Lucas Sofia Ethan Chloe Mateo Hannah Leo Isla Felix Clara Hugo Alice Oscar " +
		"Maya Elias Zoe Jonas Ines Tomas Lena Arjun Priya Kenji Yuki Omar Layla Diego Lucia Marek Anya Sven Freya Rafael " +
		"Amara Kofi Nadia Ivan Greta Paolo Elena Dmitri Aisha Malik Sara Bruno Julia Anton Vera Luca Rosa Emil Tara Nico")
	lastNames = strings.Fields("Lindqvist Okafor Moreau Tanaka Novak Silva Becker Rossi Kowalski Haddad Jensen Petrov Duarte Nakamura Fischer " +
		"Costa Ivanova Bauer Larsen Romano Mendes Weber Sato Horvat Keller Dubois Almeida Berg Conti Varga Ortiz Meyer Kim Nilsen " +
		"Ferreira Schulz Ricci Hoffmann Lopez Janssen Andersen Popescu Marino Wagner Ito Vogel Santos Jovanovic Lund Brennan " +
		"Castro Engel Marsh Quinn Reyes Stone Vidal Wolf Yilmaz Zhou")
	places = strings.Fields("Lisbon Porto Berlin Munich Oslo Bergen Madrid Seville Paris Lyon Rome Milan Vienna Prague Warsaw Krakow " +
		"Dublin Cork Amsterdam Utrecht Copenhagen Aarhus Stockholm Gothenburg Helsinki Tallinn Riga Vilnius Budapest Zagreb " +
		"Athens Istanbul Cairo Nairobi Lagos Accra Toronto Montreal Boston Chicago Denver Seattle Austin Lima Bogota Santiago " +
		"Tokyo Osaka Seoul Busan Taipei Manila Jakarta Bangkok Hanoi Mumbai Delhi Sydney Auckland")
	orgWords = strings.Fields("Acme Quantum Northwind Blue Harbor Granite Silver Maple Cedar Atlas Nova Orbit Pioneer Summit Vertex Lumen " +
		"Beacon Falcon Juniper Meridian Redwood Sterling Tidal Willow Zenith Aurora Cobalt Ember Horizon Ironwood")
	orgKinds = strings.Fields("Robotics Bakery Labs Bank Studio Clinic Logistics Media Analytics Foods Energy Games Press Health " +
		"Motors Software Consulting Architects Brewery Pharmacy")
	things = strings.Fields("cello violin piano guitar chess tennis climbing hiking sailing pottery photography painting knitting " +
		"gardening surfing skiing running cycling yoga baking sourdough ramen sushi tacos espresso matcha jazz opera poetry " +
		"astronomy birdwatching woodworking calligraphy origami fencing rowing archery podcasts crosswords sudoku kayaking " +
		"snowboarding volleyball badminton judo salsa tango ballet kombucha kimchi curry dumplings lasagna paella")
	whens    = []string{"last spring", "in 2019", "two summers ago", "over the holidays", "last October", "in 2021", "for a conference", "on a school trip"}
	contexts = []string{"school", "work", "the climbing gym", "university", "the choir", "a book club", "the football team", "a hackathon"}
)

// predicate is a generated relation: the type of object it takes and the
// sentence and question templates that state and ask it.
type predicate struct {
	name     string
	object   string // entity type of the object
	sentence func(s, o string, r *rand.Rand) string
	question func(s, o string) string
}

var predicates = []predicate{
	{"works_at", "organization", func(s, o string, _ *rand.Rand) string { return s + " works at " + o },
		func(s, _ string) string { return "Where does " + s + " work?" }},
	{"lives_in", "place", func(s, o string, _ *rand.Rand) string { return s + " lives in " + o },
		func(s, _ string) string { return "Where does " + s + " live?" }},
	{"visited", "place", func(s, o string, r *rand.Rand) string { return s + " visited " + o + " " + whens[r.IntN(len(whens))] },
		func(s, o string) string { return "When did " + s + " visit " + o + "?" }},
	{"knows", "person", func(s, o string, r *rand.Rand) string {
		return s + " knows " + o + " from " + contexts[r.IntN(len(contexts))]
	},
		func(s, o string) string { return "How does " + s + " know " + o + "?" }},
	{"likes", "thing", func(s, o string, _ *rand.Rand) string { return s + " likes " + o },
		func(s, _ string) string { return "What does " + s + " like?" }},
	{"plays", "thing", func(s, o string, _ *rand.Rand) string { return s + " plays " + o + " on weekends" },
		func(s, _ string) string { return "What does " + s + " do on weekends?" }},
	{"met", "person", func(s, o string, r *rand.Rand) string { return s + " met " + o + " in " + places[r.IntN(len(places))] },
		func(s, o string) string { return "Where did " + s + " meet " + o + "?" }},
	{"recommends", "organization", func(s, o string, _ *rand.Rand) string { return s + " recommended " + o + " to friends" },
		func(s, _ string) string { return "What did " + s + " recommend?" }},
	{"studies", "thing", func(s, o string, _ *rand.Rand) string { return s + " is studying " + o },
		func(s, _ string) string { return "What is " + s + " studying?" }},
	{"sibling_of", "person", func(s, o string, _ *rand.Rand) string { return s + " is a sibling of " + o },
		func(s, _ string) string { return "Who are " + s + "'s siblings?" }},
}

// QueriesPerUser is how many queries Generate makes for each user.
const QueriesPerUser = 20

// Generate returns the i-th user of the Spec. Its facts are distinct
// triples; subjects follow a skewed distribution, so a few entities are
// hubs, and a fifth of the facts are about the user themself.
func (s Spec) Generate(i int) User {
	r := rand.New(rand.NewPCG(s.Seed, uint64(i)+1))
	u := User{ID: UserID(i)}
	nEnt := min(max(s.FactsPerUser/4, 12), 3000)
	u.Entities = append(u.Entities, Entity{Name: "user", Type: lore.UserEntityType})
	byType := map[string][]int{}
	seen := map[string]bool{}
	for len(u.Entities) < nEnt {
		var e Entity
		switch x := r.IntN(10); {
		case x < 6:
			e = Entity{firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))], "person"}
		case x < 7:
			e = Entity{places[r.IntN(len(places))], "place"}
		case x < 9:
			e = Entity{orgWords[r.IntN(len(orgWords))] + " " + orgKinds[r.IntN(len(orgKinds))], "organization"}
		default:
			e = Entity{things[r.IntN(len(things))], "thing"}
		}
		if seen[e.Name] {
			// Small lists run out of places and things; add more people instead.
			if len(seen) > 8*nEnt {
				break
			}
			continue
		}
		seen[e.Name] = true
		byType[e.Type] = append(byType[e.Type], len(u.Entities))
		u.Entities = append(u.Entities, e)
	}
	// Every type must be there for every predicate to have objects.
	for _, typ := range []string{"person", "place", "organization", "thing"} {
		if len(byType[typ]) == 0 {
			name := map[string]string{"person": "Nora Lindqvist", "place": "Lisbon", "organization": "Acme Robotics", "thing": "cello"}[typ]
			byType[typ] = append(byType[typ], len(u.Entities))
			u.Entities = append(u.Entities, Entity{name, typ})
		}
	}
	people := append([]int{0}, byType["person"]...)
	triples := map[[3]int]bool{}
	t := baseTime.Add(time.Duration(i) * time.Hour)
	for len(u.Facts) < s.FactsPerUser {
		var subj int
		if r.IntN(5) > 0 {
			// r*r skews towards the first people: hubs, as in real graphs.
			subj = people[int(float64(len(people))*r.Float64()*r.Float64())]
		}
		pi := r.IntN(len(predicates))
		p := predicates[pi]
		objs := byType[p.object]
		obj := objs[r.IntN(len(objs))]
		key := [3]int{subj, pi, obj}
		if obj == subj || triples[key] {
			continue
		}
		triples[key] = true
		text := p.sentence(u.Entities[subj].Name, u.Entities[obj].Name, r)
		u.Facts = append(u.Facts, Fact{Subject: subj, Object: obj, Predicate: p.name, Text: text})
	}
	// Two facts per turn, said as the user says things.
	for j := 0; j < len(u.Facts); j += 2 {
		content := sayable(u.Facts[j].Text)
		u.Facts[j].Episode = len(u.Episodes)
		if j+1 < len(u.Facts) {
			content += ". Also, " + sayable(u.Facts[j+1].Text)
			u.Facts[j+1].Episode = len(u.Episodes)
		}
		u.Episodes = append(u.Episodes, Episode{Content: content + ".", OccurredAt: t.Add(time.Duration(j/2) * time.Minute)})
	}
	for range QueriesPerUser {
		f := u.Facts[r.IntN(len(u.Facts))]
		u.Queries = append(u.Queries, askable(predicates[predicateIndex(f.Predicate)].question(u.Entities[f.Subject].Name, u.Entities[f.Object].Name)))
	}
	return u
}

// sayable turns a generated sentence about "user" into the first person,
// as the user says it: "user lives in Oslo" → "I live in Oslo".
func sayable(text string) string {
	rest, ok := strings.CutPrefix(text, "user ")
	if !ok {
		return text
	}
	verb, tail, _ := strings.Cut(rest, " ")
	switch {
	case verb == "is":
		verb = "am"
	case strings.HasSuffix(verb, "s"):
		verb = strings.TrimSuffix(verb, "s")
	}
	return "I " + verb + " " + tail
}

// askable turns a generated question about "user" into the first person:
// "Where does user live?" → "Where do I live?".
func askable(q string) string {
	return strings.NewReplacer("does user ", "do I ", "did user ", "did I ", "is user ", "am I ", "are user's ", "are my ").Replace(q)
}

func predicateIndex(name string) int {
	for i, p := range predicates {
		if p.name == name {
			return i
		}
	}
	panic("scale: unknown predicate " + name)
}

// Messages returns n chat turns for ingestion through the rules extractor:
// first-person statements and statements about named people, places and
// organisations, as a user would write them. Turn k of a Spec's seed is
// always the same.
func (s Spec) Messages(start, n int) []string {
	templates := []func(r *rand.Rand) string{
		func(r *rand.Rand) string { return "I live in " + places[r.IntN(len(places))] + " now." },
		func(r *rand.Rand) string {
			return "I work at " + orgWords[r.IntN(len(orgWords))] + " " + orgKinds[r.IntN(len(orgKinds))] + " as an engineer."
		},
		func(r *rand.Rand) string {
			return "My friend " + firstNames[r.IntN(len(firstNames))] + " moved to " + places[r.IntN(len(places))] + " last week."
		},
		func(r *rand.Rand) string { return "I really love " + things[r.IntN(len(things))] + " in the evening." },
		func(r *rand.Rand) string {
			return firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))] + " works at " +
				orgWords[r.IntN(len(orgWords))] + " " + orgKinds[r.IntN(len(orgKinds))] + "."
		},
		func(r *rand.Rand) string {
			return "I started learning " + things[r.IntN(len(things))] + " two weeks ago."
		},
		func(r *rand.Rand) string {
			return "My sister " + firstNames[r.IntN(len(firstNames))] + " is visiting me tomorrow."
		},
		func(r *rand.Rand) string {
			return "I prefer " + things[r.IntN(len(things))] + " over " + things[r.IntN(len(things))] + "."
		},
	}
	out := make([]string, n)
	for k := range n {
		r := rand.New(rand.NewPCG(s.Seed^0x5eed, uint64(start+k)))
		out[k] = templates[r.IntN(len(templates))](r)
	}
	return out
}

// Vector is the fixed synthetic vector of a text: the same hashed bag of
// words as storetest.HashEmbedder, so a query embedded by it finds the
// documents that share its words.
type Vector func(text string) []float32

// Loader writes generated users into a store and an index the way
// ingestion leaves them: entities and facts merged one by one, episodes
// in batches, and every fact and episode indexed under lore.FactKey and
// lore.EpisodeKey with its vector.
type Loader struct {
	Store   lore.Store
	Index   lore.Index
	Vector  Vector // nil: no vectors
	Tenant  string
	Workers int // concurrent writers; 0 means 1
}

// indexBatch is the number of documents per Index.Upsert.
const indexBatch = 200

// Prepared is a generated user whose episodes and entities are stored and
// whose facts are not yet.
type Prepared struct {
	User     User
	Scope    lore.Scope
	Episodes []*lore.Episode
	Entities []*lore.Entity
}

// LoadUser writes one generated user and returns the number of facts
// stored.
func (l *Loader) LoadUser(ctx context.Context, u User) (int, error) {
	p, err := l.Prepare(ctx, u)
	if err != nil {
		return 0, err
	}
	return l.LoadFacts(ctx, p, 0, len(u.Facts))
}

// Prepare stores a user's episodes and merges its entities.
func (l *Loader) Prepare(ctx context.Context, u User) (*Prepared, error) {
	p := &Prepared{User: u, Scope: lore.Scope{TenantID: l.Tenant, UserID: u.ID}}
	p.Episodes = make([]*lore.Episode, len(u.Episodes))
	for i, e := range u.Episodes {
		p.Episodes[i] = &lore.Episode{Scope: p.Scope, Role: "user", Content: e.Content, OccurredAt: e.OccurredAt,
			SourceID: fmt.Sprintf("%s:%d", u.ID, i)}
	}
	for start := 0; start < len(p.Episodes); start += 500 {
		if err := l.Store.AddEpisodes(ctx, p.Episodes[start:min(start+500, len(p.Episodes))]); err != nil {
			return nil, fmt.Errorf("scale: add episodes: %w", err)
		}
	}
	p.Entities = make([]*lore.Entity, len(u.Entities))
	err := l.parallel(len(u.Entities), func(i int) error {
		e, err := l.Store.MergeEntity(ctx, &lore.Entity{Scope: p.Scope, Name: u.Entities[i].Name, Type: u.Entities[i].Type,
			FirstSeen: baseTime, LastSeen: baseTime})
		p.Entities[i] = e
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("scale: merge entity: %w", err)
	}
	return p, nil
}

// LoadFacts merges the prepared user's facts [from, to) and indexes them
// with the episodes that stated them, as ingestion does after extraction.
func (l *Loader) LoadFacts(ctx context.Context, p *Prepared, from, to int) (int, error) {
	facts := make([]*lore.Fact, to-from)
	err := l.parallel(len(facts), func(i int) error {
		g := p.User.Facts[from+i]
		ep := p.Episodes[g.Episode]
		subj, obj := p.Entities[g.Subject], p.Entities[g.Object]
		f, _, err := l.Store.MergeFact(ctx, &lore.Fact{Scope: p.Scope,
			SubjectID: subj.ID, Subject: subj.Name, Predicate: g.Predicate,
			ObjectID: obj.ID, Object: obj.Name, Text: g.Text, Confidence: 0.9,
			FirstSeen: ep.OccurredAt, LastSeen: ep.OccurredAt, ValidAt: &ep.OccurredAt,
			SourceEpisodeIDs: []string{ep.ID}, Extractor: "scale"}, "scale")
		facts[i] = f
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("scale: merge fact: %w", err)
	}
	byEpisode := map[string][]*lore.Fact{}
	var order []*lore.Episode
	for i, f := range facts {
		ep := p.Episodes[p.User.Facts[from+i].Episode]
		if _, ok := byEpisode[ep.ID]; !ok {
			order = append(order, ep)
		}
		byEpisode[ep.ID] = append(byEpisode[ep.ID], f)
	}
	docs := make([]lore.IndexDoc, 0, len(facts)+len(order))
	for _, f := range facts {
		docs = append(docs, lore.IndexDoc{ID: f.ID, Kind: lore.KindFact, Scope: p.Scope, Text: lore.FactKey(f), Time: f.LastSeen})
	}
	for _, ep := range order {
		docs = append(docs, lore.IndexDoc{ID: ep.ID, Kind: lore.KindEpisode, Scope: p.Scope, Text: lore.EpisodeKey(ep, nil, byEpisode[ep.ID]), Time: ep.OccurredAt})
	}
	if err := l.upsert(ctx, docs); err != nil {
		return 0, err
	}
	return len(facts), nil
}

// upsert indexes docs in batches, with vectors when the Loader has them.
func (l *Loader) upsert(ctx context.Context, docs []lore.IndexDoc) error {
	if l.Vector != nil {
		for i := range docs {
			docs[i].Vector = l.Vector(docs[i].Text)
		}
	}
	for start := 0; start < len(docs); start += indexBatch {
		if err := l.Index.Upsert(ctx, docs[start:min(start+indexBatch, len(docs))]); err != nil {
			return fmt.Errorf("scale: index upsert: %w", err)
		}
	}
	return nil
}

// parallel runs fn(0..n-1) on the Loader's workers and returns the first
// error.
func (l *Loader) parallel(n int, fn func(i int) error) error {
	workers := max(l.Workers, 1)
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n)) // stop the others early
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// TenantFor names the tenant a Spec's data is loaded under: its key and a
// generation that tells builds apart, so that benchmark data never mixes
// with other data on a shared server, nor with an interrupted build.
func TenantFor(s Spec, generation string) string {
	return "scale-" + s.Key() + "-" + generation
}
