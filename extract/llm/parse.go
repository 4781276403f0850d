package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// reply is the model's answer as prompts/v1/schema.json describes it.
// Required strings are pointers so a missing field is told from an empty one.
type reply struct {
	Entities *[]replyEntity `json:"entities"`
	Facts    *[]replyFact   `json:"facts"`
	Profile  []replyProfile `json:"profile"`
}

type replyEntity struct {
	Name      *string  `json:"name"`
	Type      *string  `json:"type"`
	Aliases   []string `json:"aliases"`
	Candidate int      `json:"candidate"`
}

type replyFact struct {
	Subject        *string  `json:"subject"`
	Predicate      *string  `json:"predicate"`
	Object         *string  `json:"object"`
	ObjectIsEntity bool     `json:"object_is_entity"`
	Fact           *string  `json:"fact"`
	ValidAt        string   `json:"valid_at"`
	InvalidAt      string   `json:"invalid_at"`
	Confidence     *float64 `json:"confidence"`
	Messages       []int    `json:"messages"`
	Resolution     string   `json:"resolution"`
	CandidateFact  int      `json:"candidate_fact"`
}

type replyProfile struct {
	Key        *string  `json:"key"`
	Value      *string  `json:"value"`
	Confidence *float64 `json:"confidence"`
	Messages   []int    `json:"messages"`
}

// DefaultConfidence is given to facts and profile signals whose confidence
// the model left out.
const DefaultConfidence = 0.5

// parseReply reads a reply strictly: one JSON object with the entities and
// facts arrays, fields of the right types, nothing after it. The only slack
// is for wrappers local models add around the object: a leading reasoning
// block (<think>…</think>) and a Markdown code fence.
func parseReply(text string) (*reply, error) {
	s := strings.TrimSpace(text)
	if strings.HasPrefix(s, "<think>") {
		if _, after, ok := strings.Cut(s, "</think>"); ok {
			s = strings.TrimSpace(after)
		}
	}
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
		s = strings.TrimSpace(s)
	}
	if s == "" {
		return nil, errors.New("the reply is empty")
	}
	var r reply
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if r.Entities == nil {
		return nil, errors.New(`the object has no "entities" array`)
	}
	if r.Facts == nil {
		return nil, errors.New(`the object has no "facts" array`)
	}
	return &r, nil
}

// rejecter collects the reasons parts of a reply were dropped.
type rejecter struct {
	x      *Extractor
	out    *lore.Extraction
	tenant string
}

func (r rejecter) reject(format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	r.out.Rejected = append(r.out.Rejected, reason)
	r.x.log.Warn("llm: dropped part of the model's reply", "tenant", r.tenant, "reason", reason)
}

// convert validates a parsed reply for batch b and appends what holds up to
// out. An item is dropped whole when a required field is missing, a handle
// is unknown, it is about another user, or it claims something about the
// user that only the assistant said; an unusable date drops only the date.
func (x *Extractor) convert(req lore.ExtractRequest, b batch, user userInfo, r *reply, out *lore.Extraction) {
	rej := rejecter{x: x, out: out, tenant: req.Scope.TenantID}

	// Entities first: facts take their subject and object types from them.
	types := map[string]string{} // normalized name or alias → type
	others := map[string]bool{}  // normalized names of other "users"
	seen := map[string]int{}     // normalized name → index in out.Entities
	for i, e := range req.Entities {
		if e != nil && b.entities[i+1] {
			types[lore.NormalizeName(e.Name)] = e.Type
		}
	}
	for i, e := range out.Entities {
		seen[lore.NormalizeName(e.Name)] = i
	}
	for i, re := range *r.Entities {
		n := i + 1
		name, typ := str(re.Name), lore.NormalizeName(str(re.Type))
		switch {
		case name == "":
			rej.reject("entity %d: missing name", n)
			continue
		case re.Type == nil || typ == "":
			rej.reject("entity %d (%q): missing type", n, name)
			continue
		case re.Candidate < 0 || (re.Candidate > 0 && !b.entities[re.Candidate]):
			rej.reject("entity %d (%q): unknown candidate entity %d", n, name, re.Candidate)
			continue
		case typ == lore.UserEntityType && !user.is(name):
			others[lore.NormalizeName(name)] = true
			rej.reject("entity %d (%q): typed as a user but is not this scope's user", n, name)
			continue
		}
		if user.is(name) {
			name, typ = user.name, lore.UserEntityType
		}
		ent := lore.ExtractedEntity{Name: name, Type: typ, Handle: re.Candidate}
		norm := lore.NormalizeName(name)
		for _, a := range re.Aliases {
			a = strings.TrimSpace(a)
			if a != "" && lore.NormalizeName(a) != norm {
				ent.Aliases = append(ent.Aliases, a)
				types[lore.NormalizeName(a)] = typ
			}
		}
		types[norm] = typ
		if j, ok := seen[norm]; ok {
			// The same entity from an earlier batch or twice in this reply.
			prev := &out.Entities[j]
			prev.Aliases = appendNew(prev.Aliases, ent.Aliases...)
			if prev.Handle == 0 {
				prev.Handle = ent.Handle
			}
			continue
		}
		seen[norm] = len(out.Entities)
		out.Entities = append(out.Entities, ent)
	}

	// A model sometimes states one fact twice in a reply; it is one
	// statement with the union of its sources, not two.
	same := map[string]int{} // subject, predicate, object and resolution → index in out.Facts
	for i, rf := range *r.Facts {
		f, ok := x.convertFact(req, b, user, types, others, i+1, rf, rej)
		if !ok {
			continue
		}
		key := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%d", lore.NormalizeName(f.Subject), f.Predicate, lore.NormalizeName(f.Object), f.Resolution.Kind, f.Resolution.Handle)
		if j, dup := same[key]; dup {
			prev := &out.Facts[j]
			prev.EpisodeIDs = appendNew(prev.EpisodeIDs, f.EpisodeIDs...)
			prev.Confidence = math.Max(prev.Confidence, f.Confidence)
			continue
		}
		same[key] = len(out.Facts)
		out.Facts = append(out.Facts, f)
	}
	for i, rp := range r.Profile {
		if p, ok := convertProfile(b, i+1, rp, rej); ok {
			out.Profile = append(out.Profile, p)
		}
	}
}

func (x *Extractor) convertFact(req lore.ExtractRequest, b batch, user userInfo, types map[string]string, others map[string]bool, n int, rf replyFact, rej rejecter) (lore.ExtractedFact, bool) {
	subject, object, text := str(rf.Subject), str(rf.Object), str(rf.Fact)
	label := fmt.Sprintf("fact %d (%q)", n, text)
	if text == "" {
		label = fmt.Sprintf("fact %d (%s %s %s)", n, subject, str(rf.Predicate), object)
	}
	var missing []string
	for _, f := range []struct {
		name  string
		value *string
	}{{"subject", rf.Subject}, {"predicate", rf.Predicate}, {"object", rf.Object}, {"fact", rf.Fact}} {
		if str(f.value) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(rf.Messages) == 0 {
		missing = append(missing, "messages")
	}
	if len(missing) > 0 {
		rej.reject("%s: missing %s", label, strings.Join(missing, ", "))
		return lore.ExtractedFact{}, false
	}
	predicate, err := lore.NormalizePredicate(*rf.Predicate)
	if err != nil {
		rej.reject("%s: bad predicate: %s", label, lore.ErrorMessage(err))
		return lore.ExtractedFact{}, false
	}
	eps, ok := messages(b, rf.Messages)
	if !ok {
		rej.reject("%s: unknown message in %v", label, rf.Messages)
		return lore.ExtractedFact{}, false
	}

	res := lore.Resolution{Kind: strings.ToLower(strings.TrimSpace(rf.Resolution))}
	switch res.Kind {
	case "", "new":
		res.Kind = "new"
	case "duplicate", "contradicts":
		if !b.facts[rf.CandidateFact] {
			rej.reject("%s: %s of unknown candidate fact %d", label, res.Kind, rf.CandidateFact)
			return lore.ExtractedFact{}, false
		}
		res.Handle = rf.CandidateFact
	default:
		rej.reject("%s: unknown resolution %q", label, rf.Resolution)
		return lore.ExtractedFact{}, false
	}

	for _, name := range []string{subject, object} {
		if others[lore.NormalizeName(name)] {
			rej.reject("%s: about %q, who is not this scope's user", label, name)
			return lore.ExtractedFact{}, false
		}
	}
	f := lore.ExtractedFact{
		Subject:        subject,
		SubjectType:    types[lore.NormalizeName(subject)],
		Predicate:      predicate,
		Object:         object,
		ObjectIsEntity: rf.ObjectIsEntity,
		Text:           text,
		Confidence:     DefaultConfidence,
		Resolution:     res,
	}
	if user.is(subject) {
		f.Subject, f.SubjectType = user.name, lore.UserEntityType
		if !anyUser(eps) {
			rej.reject("%s: a claim about the user that only the assistant made", label)
			return lore.ExtractedFact{}, false
		}
	}
	if f.ObjectIsEntity {
		if user.is(object) {
			f.Object, f.ObjectType = user.name, lore.UserEntityType
		} else {
			f.ObjectType = types[lore.NormalizeName(object)]
		}
	}
	if rf.Confidence != nil {
		f.Confidence = clamp01(*rf.Confidence)
	}
	for _, ep := range eps {
		f.EpisodeIDs = appendNew(f.EpisodeIDs, ep.ID)
	}

	ref := latest(eps)
	f.ValidAt = date(rf.ValidAt, ref, label, "valid_at", rej)
	f.InvalidAt = date(rf.InvalidAt, ref, label, "invalid_at", rej)
	if f.ValidAt != nil && f.InvalidAt != nil && f.InvalidAt.Before(*f.ValidAt) {
		rej.reject("%s: invalid_at %s is before valid_at %s; invalid_at dropped", label, rf.InvalidAt, rf.ValidAt)
		f.InvalidAt = nil
	}
	return f, true
}

func convertProfile(b batch, n int, rp replyProfile, rej rejecter) (lore.ProfileSignal, bool) {
	key, value := str(rp.Key), str(rp.Value)
	label := fmt.Sprintf("profile %d (%s=%q)", n, key, value)
	switch {
	case key == "" || value == "":
		rej.reject("%s: missing key or value", label)
		return lore.ProfileSignal{}, false
	case len(rp.Messages) == 0:
		rej.reject("%s: missing messages", label)
		return lore.ProfileSignal{}, false
	}
	norm, err := lore.NormalizePredicate(key)
	if err != nil {
		rej.reject("%s: bad key: %s", label, lore.ErrorMessage(err))
		return lore.ProfileSignal{}, false
	}
	eps, ok := messages(b, rp.Messages)
	if !ok {
		rej.reject("%s: unknown message in %v", label, rp.Messages)
		return lore.ProfileSignal{}, false
	}
	p := lore.ProfileSignal{Key: norm, Value: value, Confidence: DefaultConfidence}
	if rp.Confidence != nil {
		p.Confidence = clamp01(*rp.Confidence)
	}
	// Only the user's own words count as evidence about the user.
	for _, ep := range eps {
		if ep.Role == "user" {
			p.EpisodeIDs = appendNew(p.EpisodeIDs, ep.ID)
		}
	}
	if len(p.EpisodeIDs) == 0 {
		rej.reject("%s: inferred from assistant messages only", label)
		return lore.ProfileSignal{}, false
	}
	return p, true
}

// messages maps message handles of batch b to its episodes; ok is false if
// any handle is unknown.
func messages(b batch, handles []int) (eps []*lore.Episode, ok bool) {
	for _, h := range handles {
		if h < 1 || h > len(b.episodes) {
			return nil, false
		}
		eps = append(eps, b.episodes[h-1])
	}
	return eps, true
}

func anyUser(eps []*lore.Episode) bool {
	for _, ep := range eps {
		if ep.Role == "user" || ep.Role == "" {
			return true
		}
	}
	return false
}

// latest is the latest occurrence time of eps, the reference for dates.
func latest(eps []*lore.Episode) time.Time {
	var t time.Time
	for _, ep := range eps {
		if ep.OccurredAt.After(t) {
			t = ep.OccurredAt
		}
	}
	return t
}

// date parses a reply's date, dropping (with a reason) one that does not
// parse or is absurd: before 1900 or more than MaxYearsAhead years after ref.
// Dates without a zone are read in ref's location.
func date(s string, ref time.Time, label, field string, rej rejecter) *time.Time {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "null") || strings.EqualFold(s, "unknown") {
		return nil
	}
	loc := time.UTC
	if !ref.IsZero() {
		loc = ref.Location()
	}
	// The forms a reply's dates may take, most precise first.
	for _, layout := range [...]string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02", "2006-01", "2006"} {
		t, err := time.ParseInLocation(layout, s, loc)
		if err != nil {
			continue
		}
		switch {
		case t.Year() < 1900:
			rej.reject("%s: %s %s is before 1900; date dropped", label, field, s)
			return nil
		case !ref.IsZero() && t.After(ref.AddDate(MaxYearsAhead, 0, 0)):
			rej.reject("%s: %s %s is more than %d years after its message; date dropped", label, field, s, MaxYearsAhead)
			return nil
		}
		return &t
	}
	rej.reject("%s: %s %q is not a date; date dropped", label, field, s)
	return nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return strings.TrimSpace(*p)
}

func clamp01(v float64) float64 {
	if math.IsNaN(v) {
		return DefaultConfidence
	}
	return math.Min(1, math.Max(0, v))
}

// appendNew appends the values not yet in list.
func appendNew(list []string, values ...string) []string {
outer:
	for _, v := range values {
		for _, have := range list {
			if have == v {
				continue outer
			}
		}
		list = append(list, v)
	}
	return list
}
