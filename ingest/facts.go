package ingest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
)

// apiActor is the actor history records for facts written or changed
// through AddFact and ChangeFact.
const apiActor = "api"

// maxNameBytes bounds a subject or an object given to AddFact or
// ChangeFact.
const maxNameBytes = 1024

// FactInput is a fact an agent extracted itself, for AddFact.
type FactInput struct {
	Scope lore.Scope // an empty tenant becomes lore.DefaultTenant
	// Subject names an entity; "user", "me", "I" or the scope's user id
	// mean the user's own entity.
	Subject     string
	SubjectType string // for a new entity; "" means thing (user for the user)
	Predicate   string // normalized: "Works At" → works_at
	Object      string
	// ObjectIsEntity makes the object an entity of the graph, resolved and
	// merged by name like extracted ones; false keeps it a literal value.
	ObjectIsEntity bool
	ObjectType     string
	Text           string     // "" means "<subject> <predicate> <object>"
	ValidAt        *time.Time // nil: from now
	InvalidAt      *time.Time // at or before now: the fact has ended
	Confidence     float64    // 0 means the extractors' default
	Source         string     // who stated it, kept as the fact's extractor; "" means api
	Metadata       map[string]any
}

// FactResult is what AddFact did: the fact it stored, merged into or
// closed, that event, and every memory event of the write (a single-valued
// predicate's new object closes the old one first).
type FactResult struct {
	Fact   *lore.Fact         `json:"fact"`
	Event  lore.EventKind     `json:"event"`
	Events []lore.MemoryEvent `json:"results"`
}

// validName checks a subject or object field.
func validName(field, v string) error {
	switch {
	case lore.NormalizeName(v) == "":
		return lore.Errorf(lore.EINVALID, "%s is required", field)
	case len(v) > maxNameBytes:
		return lore.Errorf(lore.EINVALID, "%s is longer than %d bytes", field, maxNameBytes)
	}
	return nil
}

// validate checks a FactInput and returns its scope and predicate.
func (in *FactInput) validate(cfg Config) (lore.Scope, string, error) {
	scope := in.Scope.WithDefaults()
	if err := scope.Validate(); err != nil {
		return scope, "", err
	}
	if err := validName("subject", in.Subject); err != nil {
		return scope, "", err
	}
	if strings.TrimSpace(in.Predicate) == "" {
		return scope, "", lore.Errorf(lore.EINVALID, "predicate is required")
	}
	pred, err := lore.NormalizePredicate(in.Predicate)
	if err != nil {
		return scope, "", err
	}
	if err := validName("object", in.Object); err != nil {
		return scope, "", err
	}
	if len(in.Text) > cfg.MaxContentBytes {
		return scope, "", lore.Errorf(lore.ETOOLARGE, "text is longer than %d bytes", cfg.MaxContentBytes)
	}
	if in.Confidence < 0 || in.Confidence > 1 {
		return scope, "", lore.Errorf(lore.EINVALID, "confidence must be between 0 and 1, got %v", in.Confidence)
	}
	if in.ValidAt != nil && in.InvalidAt != nil && in.InvalidAt.Before(*in.ValidAt) {
		return scope, "", lore.Errorf(lore.EINVALID, "invalid_at must not be before valid_at")
	}
	for field, v := range map[string]string{"subject_type": in.SubjectType, "object_type": in.ObjectType, "source": in.Source} {
		if err := lore.ValidateID(field, v); err != nil {
			return scope, "", err
		}
	}
	return scope, pred, nil
}

// AddFact writes a fact an agent extracted itself through the same merge
// path as extracted facts: its subject and object entities are resolved
// and merged by name and alias, a repeat merges into the current fact and
// counts, a new object of a single-valued predicate closes the old fact,
// and a fact that has already ended closes its current twin or is stored
// closed. History records actor "api"; the fact is indexed for search.
func (s *Service) AddFact(ctx context.Context, in FactInput) (*FactResult, error) {
	scope, pred, err := in.validate(s.cfg())
	if err != nil {
		return nil, err
	}
	ctx = Tagged(ctx)
	r := s.newRun(scope, nil)
	r.actor, r.name = apiActor, strings.TrimSpace(in.Source)
	if r.name == "" {
		r.name = apiActor
	}
	subj, err := r.entity(ctx, in.Subject, in.SubjectType)
	if err != nil {
		return nil, err
	}
	conf := in.Confidence
	if conf == 0 {
		conf = defaultConfidence
	}
	f := &lore.Fact{
		Scope: scope, SubjectID: subj.ID, Subject: subj.Name, Predicate: pred,
		Text: strings.TrimSpace(in.Text), Confidence: conf, ValidAt: utc(in.ValidAt), InvalidAt: utc(in.InvalidAt),
		Count: 1, FirstSeen: r.now, LastSeen: r.now, SourceEpisodeIDs: []string{}, Extractor: r.name, Metadata: in.Metadata,
	}
	if f.ValidAt == nil && f.Current(r.now) {
		now := r.now
		f.ValidAt = &now
	}
	if in.ObjectIsEntity {
		obj, err := r.entity(ctx, in.Object, in.ObjectType)
		if err != nil {
			return nil, err
		}
		f.ObjectID, f.Object = obj.ID, obj.Name
	} else {
		f.Object = strings.TrimSpace(in.Object)
	}
	if f.Text == "" {
		f.Text = fmt.Sprintf("%s %s %s", f.Subject, strings.ReplaceAll(pred, "_", " "), f.Object)
	}
	if !f.Current(r.now) {
		err = r.end(ctx, f)
	} else {
		err = r.merge(ctx, f, supersedeSingle)
	}
	if err != nil {
		return nil, err
	}
	last := r.events[len(r.events)-1]
	got, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: r.ns, IDs: []string{last.ID}, IncludeInvalidated: true, Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("ingest: load fact %s: %w", last.ID, err)
	}
	if len(got) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "fact %q was deleted while it was written", last.ID)
	}
	if err := s.IndexLater(ctx, s.IndexFacts(ctx, []*lore.Fact{got[0]})); err != nil {
		return nil, err
	}
	return &FactResult{Fact: got[0], Event: last.Event, Events: r.events}, nil
}

// utc returns a copy of t in UTC, or nil.
func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// FactChange is a change to a fact, for ChangeFact. Nil fields are left
// alone.
type FactChange struct {
	Text     *string
	Metadata map[string]any
	// Subject, Predicate and Object change what the fact states; the ones
	// not given keep their values. ObjectIsEntity says whether a given
	// Object is an entity (the default) or a literal.
	Subject        *string
	Predicate      *string
	Object         *string
	ObjectIsEntity *bool
}

// rederiveHint ends the message of a ChangeFact that cannot re-derive a
// fact's triple from its new text.
const rederiveHint = "give subject, predicate and object to change what this fact states, or delete it and add a new one"

// ChangeFact changes a fact through the API and keeps its triple true to
// its text. Given subject, predicate or object, the fact states them from
// now on (entities resolved and merged as in AddFact). Given only a new
// text, the triple is re-derived from it by the rules extractor, with the
// fact's subject as the speaker: exactly one extracted fact about the same
// subject must come out, and its predicate and object are taken; otherwise
// the change is refused with EINVALID saying how to make it. A triple that
// another current fact already states is refused with ECONFLICT. History
// records one UPDATE by "api"; the fact is re-indexed.
func (s *Service) ChangeFact(ctx context.Context, scope lore.Scope, id string, ch FactChange) (*lore.Fact, error) {
	ctx = Tagged(ctx)
	facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: scope, IDs: []string{id}, IncludeInvalidated: true, Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("ingest: find fact %s: %w", id, err)
	}
	if len(facts) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "memory %q not found", id)
	}
	f := facts[0]
	upd := lore.FactUpdate{Text: ch.Text, Metadata: ch.Metadata, Event: lore.EventUpdate, Actor: apiActor, Reason: "updated through the API"}
	var triple *lore.Triple
	switch {
	case ch.Subject != nil || ch.Predicate != nil || ch.Object != nil:
		if triple, err = s.givenTriple(ctx, f, ch); err != nil {
			return nil, err
		}
	case ch.Text != nil:
		if triple, err = s.rederive(ctx, f, *ch.Text); err != nil {
			return nil, err
		}
	}
	if triple != nil && !sameTriple(f, triple) {
		upd.Triple = triple
		upd.Reason = fmt.Sprintf("updated through the API: now %s %s %s (was %s %s %s)",
			triple.Subject, triple.Predicate, triple.Object, f.Subject, f.Predicate, f.Object)
	}
	updated, err := s.Store.UpdateFact(ctx, scope, f.ID, upd)
	if err != nil {
		return nil, fmt.Errorf("ingest: update fact %s: %w", f.ID, err)
	}
	if err := s.IndexLater(ctx, s.IndexFacts(ctx, []*lore.Fact{updated})); err != nil {
		return nil, fmt.Errorf("ingest: reindex fact %s: %w", f.ID, err)
	}
	return updated, nil
}

// sameTriple reports whether f already states t.
func sameTriple(f *lore.Fact, t *lore.Triple) bool {
	g := lore.Fact{ObjectID: t.ObjectID, Object: t.Object}
	return f.SubjectID == t.SubjectID && f.Predicate == t.Predicate && f.ObjectKey() == g.ObjectKey()
}

// givenTriple builds the triple a change names, keeping what it does not.
func (s *Service) givenTriple(ctx context.Context, f *lore.Fact, ch FactChange) (*lore.Triple, error) {
	t := &lore.Triple{SubjectID: f.SubjectID, Subject: f.Subject, Predicate: f.Predicate, ObjectID: f.ObjectID, Object: f.Object}
	r := s.newRun(f.Scope, nil)
	r.actor = apiActor
	if ch.Subject != nil {
		if err := validName("subject", *ch.Subject); err != nil {
			return nil, err
		}
		e, err := r.entity(ctx, *ch.Subject, "")
		if err != nil {
			return nil, err
		}
		t.SubjectID, t.Subject = e.ID, e.Name
	}
	if ch.Predicate != nil {
		p, err := lore.NormalizePredicate(*ch.Predicate)
		if err != nil {
			return nil, err
		}
		t.Predicate = p
	}
	if ch.Object != nil {
		if err := validName("object", *ch.Object); err != nil {
			return nil, err
		}
		if ch.ObjectIsEntity == nil || *ch.ObjectIsEntity {
			e, err := r.entity(ctx, *ch.Object, "")
			if err != nil {
				return nil, err
			}
			t.ObjectID, t.Object = e.ID, e.Name
		} else {
			t.ObjectID, t.Object = "", strings.TrimSpace(*ch.Object)
		}
	}
	return t, nil
}

// rederive runs the rules extractor over text as said by the fact's
// subject and returns the triple of the one fact it finds about that
// subject, or EINVALID.
func (s *Service) rederive(ctx context.Context, f *lore.Fact, text string) (*lore.Triple, error) {
	ents, err := s.Store.FindEntities(ctx, lore.EntityFilter{Scope: f.Scope.Namespace(), IDs: []string{f.SubjectID}, Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("ingest: find subject of %s: %w", f.ID, err)
	}
	if len(ents) == 0 {
		return nil, lore.Errorf(lore.EINVALID, "the subject of this fact is gone; %s", rederiveHint)
	}
	subj := ents[0]
	ep := &lore.Episode{ID: "rederive", Scope: f.Scope, Role: "user", Content: text, OccurredAt: s.now()}
	if subj.Type != lore.UserEntityType {
		ep.Speaker = subj.Name
	}
	ext, err := s.rederiver().Extract(ctx, lore.ExtractRequest{Scope: f.Scope, Episodes: []*lore.Episode{ep}})
	if err != nil {
		return nil, fmt.Errorf("ingest: re-derive fact %s: %w", f.ID, err)
	}
	r := s.newRun(f.Scope, nil)
	var found []lore.ExtractedFact
	for _, xf := range ext.Facts {
		// "X mentioned Y" echoes restate the text, not a relation.
		if xf.Predicate == "mentioned" || !r.names(subj, xf.Subject, xf.SubjectType) {
			continue
		}
		found = append(found, xf)
	}
	if len(found) != 1 {
		return nil, lore.Errorf(lore.EINVALID, "the new text states %d facts about %s that Lore can read, not one; %s", len(found), subj.Name, rederiveHint)
	}
	xf := found[0]
	pred, err := lore.NormalizePredicate(xf.Predicate)
	if err != nil || lore.NormalizeName(xf.Object) == "" {
		return nil, lore.Errorf(lore.EINVALID, "the new text states no object Lore can read; %s", rederiveHint)
	}
	t := &lore.Triple{SubjectID: subj.ID, Subject: subj.Name, Predicate: pred, Object: strings.TrimSpace(xf.Object)}
	if f.Predicate == pred && lore.NormalizeName(f.Object) == lore.NormalizeName(xf.Object) {
		// The same statement reworded: the object stays what it was.
		t.ObjectID, t.Object = f.ObjectID, f.Object
		return t, nil
	}
	if xf.ObjectIsEntity {
		r.actor = apiActor
		e, err := r.entity(ctx, xf.Object, xf.ObjectType)
		if err != nil {
			return nil, err
		}
		t.ObjectID, t.Object = e.ID, e.Name
	}
	return t, nil
}

// rederiver is the extractor that re-derives triples from edited texts.
func (s *Service) rederiver() lore.Extractor {
	if s.Rederiver != nil {
		return s.Rederiver
	}
	return rules.New()
}

// names reports whether an extracted subject is the entity e: its name or
// an alias, or a word for the user when e is the user.
func (r *batchRun) names(e *lore.Entity, name, typ string) bool {
	if e.Type == lore.UserEntityType && r.isUser(name, typ) {
		return true
	}
	n := lore.NormalizeName(name)
	return n != "" && (n == e.NormalizedName || n == lore.NormalizeName(e.Name) || slices.Contains(e.Aliases, n))
}
