// Package rules is Lore's offline extractor: deterministic English patterns
// for first-person statements ("I live in…", "my sister Emma…"), relations
// between named entities, named-entity spotting by capitalization, and dates
// relative to when a message was said. It needs no model and no network.
//
// We evaluated github.com/jdkato/prose/v2 first: it re-reads its tagger and
// NER models for every document (350–600 ms per chat message here) and
// labelled first names as places, so it cannot keep up with ingestion.
package rules

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/temporal"
)

// Version names this rule set; it is recorded with every fact it produces.
const Version = "rules/1"

// Extractor implements lore.Extractor with rules. It holds no state and is
// safe for concurrent use.
type Extractor struct{}

var _ lore.Extractor = (*Extractor)(nil)

// New returns a rules extractor.
func New() *Extractor { return &Extractor{} }

// Extract finds entities and facts in the batch's episodes. Messages from the
// assistant, the system and tools are skipped: what they say about the user
// may be wrong.
func (x *Extractor) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	out := &collector{
		entities: map[string]int{},
		facts:    map[string]int{},
		ex:       &lore.Extraction{Extractor: Version},
	}
	known := map[string]bool{}
	for _, e := range req.Entities {
		known[e.NormalizedName] = true
		for _, a := range e.Aliases {
			known[a] = true
		}
	}
	// A capitalized word that starts a sentence is a name only if it is
	// also capitalized elsewhere in the batch or already known.
	for _, ep := range req.Episodes {
		for _, s := range splitSentences(ep.Content) {
			for _, m := range spotNames(s, nil, false) {
				known[lore.NormalizeName(m.text)] = true
			}
		}
	}
	for _, ep := range req.Episodes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !fromUser(ep.Role) {
			continue
		}
		out.episode(ep, known)
	}
	return out.ex, nil
}

func fromUser(role string) bool {
	switch strings.ToLower(role) {
	case "assistant", "system", "tool", "function":
		return false
	}
	return true
}

// collector accumulates one extraction, merging repeats within the batch.
type collector struct {
	entities map[string]int // normalized name → index in ex.Entities
	facts    map[string]int // subject|predicate|object → index in ex.Facts
	ex       *lore.Extraction
}

func (c *collector) entity(name, typ string) string {
	name = strings.TrimSpace(name)
	key := lore.NormalizeName(name)
	if key == "" {
		return ""
	}
	if i, ok := c.entities[key]; ok {
		// A specific type beats the generic one.
		if c.ex.Entities[i].Type == "entity" && typ != "" && typ != "entity" {
			c.ex.Entities[i].Type = typ
		}
		return c.ex.Entities[i].Name
	}
	if typ == "" {
		typ = "entity"
	}
	c.entities[key] = len(c.ex.Entities)
	c.ex.Entities = append(c.ex.Entities, lore.ExtractedEntity{Name: name, Type: typ})
	return name
}

func (c *collector) fact(f lore.ExtractedFact) {
	key := lore.NormalizeName(f.Subject) + "|" + f.Predicate + "|" + lore.NormalizeName(f.Object)
	if i, ok := c.facts[key]; ok {
		old := &c.ex.Facts[i]
		for _, id := range f.EpisodeIDs {
			if !contains(old.EpisodeIDs, id) {
				old.EpisodeIDs = append(old.EpisodeIDs, id)
			}
		}
		if f.Confidence > old.Confidence {
			old.Confidence = f.Confidence
		}
		return
	}
	c.facts[key] = len(c.ex.Facts)
	c.ex.Facts = append(c.ex.Facts, f)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// episode extracts from one message.
func (c *collector) episode(ep *lore.Episode, known map[string]bool) {
	speaker := strings.TrimSpace(ep.Speaker)
	speakerType := "person"
	if speaker == "" {
		speaker, speakerType = "user", lore.UserEntityType
	}
	ref := ep.OccurredAt
	if ref.IsZero() {
		ref = ep.CreatedAt
	}
	subject := c.entity(speaker, speakerType)
	for _, sentence := range splitSentences(ep.Content) {
		expanded := expandContractions(sentence)
		spans := temporal.Parse(expanded, ref)
		var when *time.Time
		if len(spans) > 0 {
			t := spans[0].Start
			when = &t
		}
		objects := map[string]bool{}
		add := func(f lore.ExtractedFact) {
			f.EpisodeIDs = []string{ep.ID}
			c.fact(f)
			objects[lore.NormalizeName(f.Object)] = true
		}
		for _, clause := range splitClauses(expanded) {
			clauseSpans := temporal.Parse(clause, ref)
			clauseWhen := when
			if len(clauseSpans) > 0 {
				t := clauseSpans[0].Start
				clauseWhen = &t
			}
			for _, f := range c.statements(subject, speakerType, clause, clauseSpans, clauseWhen, ref) {
				add(f)
			}
		}
		for _, f := range c.relations(subject, speakerType, expanded, ref) {
			add(f)
		}
		// Every other name the speaker mentions becomes a "mentioned" edge,
		// so graph expansion can reach this message from that entity.
		for _, m := range spotNames(expanded, known, true) {
			key := lore.NormalizeName(m.text)
			if objects[key] || key == lore.NormalizeName(speaker) || isTemporalWord(key) {
				continue
			}
			name := c.entity(m.text, m.typ)
			add(lore.ExtractedFact{
				Subject: subject, SubjectType: speakerType, Predicate: "mentioned",
				Object: name, ObjectIsEntity: true, ObjectType: m.typ,
				Text:       fmt.Sprintf("%s mentioned %s: %s", subject, name, clip(strings.TrimSpace(sentence), 160)),
				ValidAt:    timePtr(ref),
				Confidence: 0.5,
			})
		}
	}
}

// statements applies the first-person patterns to one sentence.
func (c *collector) statements(subject, subjectType, sentence string, spans []temporal.Span, when *time.Time, ref time.Time) []lore.ExtractedFact {
	var facts []lore.ExtractedFact
	for _, st := range statements {
		m := st.re.FindStringSubmatchIndex(sentence)
		if m == nil {
			continue
		}
		predicate, verb := st.predicate, st.verb
		objStart, objEnd := m[2], m[3]
		if strings.Contains(predicate, "%s") {
			topic := strings.ReplaceAll(lore.NormalizeName(sentence[m[2]:m[3]]), " ", "_")
			predicate = fmt.Sprintf(predicate, topic)
			verb = fmt.Sprintf(verb, sentence[m[2]:m[3]])
			objStart, objEnd = m[4], m[5]
		}
		if predicate == "did" {
			// The verb itself is the predicate: "adopted", "painted".
			verbWord := lastWord(sentence[m[0]:objStart])
			predicate, verb = strings.ToLower(verbWord), strings.ToLower(verbWord)
		}
		object := cleanObject(sentence[objStart:objEnd], spans, objStart)
		if lore.NormalizeName(object) == "" || isPronoun(object) {
			continue
		}
		isName := startsUpper(object) && !st.literal
		objType := ""
		if isName {
			objType = st.objectType
			if objType == "" {
				objType = "entity"
			}
			object = c.entity(object, objType)
		} else if !st.literal {
			object = strings.ToLower(object[:1]) + object[1:]
		}
		validAt := timePtr(ref)
		if st.event && when != nil {
			validAt = when
		}
		text := strings.TrimSpace(subject + " " + verb + " " + object)
		if predicate == "age" {
			text = fmt.Sprintf("%s is %s years old", subject, object)
		}
		facts = append(facts, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: predicate,
			Object: object, ObjectIsEntity: isName, ObjectType: objType,
			Text: text, ValidAt: validAt, Confidence: st.confidence,
		})
		// One statement per clause: the first, most specific pattern wins.
		break
	}
	return facts
}

// relations finds people and pets of the speaker and third-person relations.
func (c *collector) relations(subject, subjectType, sentence string, ref time.Time) []lore.ExtractedFact {
	var facts []lore.ExtractedFact
	relation := func(rel, name string) {
		if !startsUpper(name) || isPronoun(name) || isTemporalWord(lore.NormalizeName(name)) {
			return
		}
		rel = strings.ToLower(rel)
		typ := "person"
		switch rel {
		case "dog", "cat", "puppy", "kitten", "pet", "horse":
			typ = "pet"
		}
		name = c.entity(name, typ)
		facts = append(facts, lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType,
			Predicate: "has_" + strings.ReplaceAll(strings.ReplaceAll(rel, " ", "_"), "-", "_"),
			Object:    name, ObjectIsEntity: true, ObjectType: typ,
			Text:       fmt.Sprintf("%s is %s's %s", name, subject, rel),
			ValidAt:    timePtr(ref),
			Confidence: 0.85,
		})
	}
	for _, m := range myRelationRe.FindAllStringSubmatch(sentence, -1) {
		relation(m[1], trimTrailingLower(m[2]))
	}
	for _, m := range namedRelationRe.FindAllStringSubmatch(sentence, -1) {
		relation(m[1], trimTrailingLower(m[2]))
	}
	for _, m := range isMyRelationRe.FindAllStringSubmatch(sentence, -1) {
		relation(m[2], m[1])
	}
	third := func(m []string, predicate, verb, objType string) {
		if isPronoun(m[1]) || isStopName(m[1]) {
			return
		}
		s := c.entity(m[1], "person")
		o := c.entity(m[2], objType)
		facts = append(facts, lore.ExtractedFact{
			Subject: s, SubjectType: "person", Predicate: predicate,
			Object: o, ObjectIsEntity: true, ObjectType: objType,
			Text: s + " " + verb + " " + o, ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	for _, m := range thirdLivesRe.FindAllStringSubmatch(sentence, -1) {
		third(m, "lives_in", "lives in", "place")
	}
	for _, m := range thirdWorksRe.FindAllStringSubmatch(sentence, -1) {
		third(m, "works_at", "works at", "organization")
	}
	return facts
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// trimTrailingLower drops a trailing lower-case word that the case-folding
// relation pattern may have swallowed ("Emma and" → "Emma").
func trimTrailingLower(name string) string {
	f := strings.Fields(name)
	for len(f) > 1 && !startsUpper(f[len(f)-1]) {
		f = f[:len(f)-1]
	}
	return strings.Join(f, " ")
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndex(s[:n], " ")
	if cut < n/2 {
		cut = n
	}
	return s[:cut] + "…"
}
