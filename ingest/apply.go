package ingest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// apply merges an extraction into the graph: entities first, then facts,
// then profile signals, recording one event per memory touched.
func (r *batchRun) apply(ctx context.Context, ext *lore.Extraction) error {
	if err := r.resolveEntities(ctx, ext.Entities); err != nil {
		return err
	}
	for i := range ext.Facts {
		if err := r.applyFact(ctx, &ext.Facts[i]); err != nil {
			return err
		}
	}
	for _, p := range ext.Profile {
		if err := r.applyProfile(ctx, p); err != nil {
			return err
		}
	}
	return r.feedProfile(ctx, ext)
}

// reject logs a part of the extraction that cannot be applied. The rest of
// the extraction is kept.
func (r *batchRun) reject(what string, args ...any) {
	r.s.logger().Info("ingest: dropped extracted item", "tenant", r.scope.TenantID, "extractor", r.name, "reason", fmt.Sprintf(what, args...))
}

// userEntity returns the scope's user entity, creating it on first use.
func (r *batchRun) userEntity(ctx context.Context) (*lore.Entity, error) {
	if r.user != nil {
		return r.user, nil
	}
	first, last := r.seen()
	u, err := r.s.Store.MergeEntity(ctx, &lore.Entity{
		Scope: r.ns, Name: userName(r.scope), Type: lore.UserEntityType, Aliases: userAliases(),
		Mentions: 1, FirstSeen: first, LastSeen: last,
	})
	if err != nil {
		return nil, fmt.Errorf("ingest: merge user entity: %w", err)
	}
	r.user = u
	r.remember(u)
	return u, nil
}

// aliasUser adds name to the user entity's aliases.
func (r *batchRun) aliasUser(ctx context.Context, name string) error {
	norm := lore.NormalizeName(name)
	if norm == "" || r.resolved[norm] == r.user {
		return nil
	}
	// A name that already belongs to another entity stays with it: two
	// entities must never share a name.
	have, err := r.s.Store.FindEntities(ctx, lore.EntityFilter{Scope: r.ns, Names: []string{norm}, Limit: 1})
	if err != nil {
		return fmt.Errorf("ingest: find entity %q: %w", norm, err)
	}
	if len(have) > 0 {
		return nil
	}
	u, err := r.s.Store.MergeEntity(ctx, &lore.Entity{Scope: r.ns, Name: r.user.Name, Type: r.user.Type, Aliases: []string{norm}, LastSeen: r.user.LastSeen, FirstSeen: r.user.FirstSeen})
	if err != nil {
		return fmt.Errorf("ingest: alias user entity: %w", err)
	}
	r.user = u
	r.remember(u)
	return nil
}

// remember makes an entity findable by its name and aliases for the rest
// of the batch.
func (r *batchRun) remember(e *lore.Entity) {
	r.resolved[e.NormalizedName] = e
	r.resolved[lore.NormalizeName(e.Name)] = e
	for _, a := range e.Aliases {
		r.resolved[lore.NormalizeName(a)] = e
	}
}

// resolveEntities merges extracted entities into the graph. An entity is
// the candidate its handle names, else the candidate of the same type whose
// name embedding is close enough, else whatever the store resolves by name
// and alias, else new.
func (r *batchRun) resolveEntities(ctx context.Context, ents []lore.ExtractedEntity) error {
	similar, err := r.similarCandidates(ctx, ents)
	if err != nil {
		return err
	}
	first, last := r.seen()
	for i, xe := range ents {
		norm := lore.NormalizeName(xe.Name)
		if norm == "" {
			r.reject("entity %q has no name", xe.Name)
			continue
		}
		aliases := make([]string, 0, len(xe.Aliases)+1)
		for _, a := range xe.Aliases {
			if a = lore.NormalizeName(a); a != "" && a != norm {
				aliases = append(aliases, a)
			}
		}
		if r.isUser(xe.Name, xe.Type) {
			// The user entity is merged once per batch; a name the
			// extractor gives the user becomes one of its aliases.
			if _, err := r.userEntity(ctx); err != nil {
				return err
			}
			for _, name := range append([]string{xe.Name}, xe.Aliases...) {
				if err := r.aliasUser(ctx, name); err != nil {
					return err
				}
				r.resolved[lore.NormalizeName(name)] = r.user
			}
			continue
		}
		var target *lore.Entity
		switch {
		case xe.Handle > 0 && xe.Handle <= len(r.cands):
			target = r.cands[xe.Handle-1]
		case xe.Handle != 0:
			r.reject("entity %q names unknown candidate handle %d", xe.Name, xe.Handle)
		}
		if target == nil {
			target = similar[i]
		}
		e := &lore.Entity{Scope: r.ns, Name: xe.Name, Type: entityType(xe.Type), Aliases: aliases, Mentions: 1, FirstSeen: first, LastSeen: last}
		if target != nil {
			// Merge under the known entity's name so the store resolves
			// to it; the extracted name becomes one of its aliases.
			e.Name, e.Type = target.Name, target.Type
			if norm != target.NormalizedName {
				e.Aliases = append(e.Aliases, norm)
			}
		}
		stored, err := r.s.Store.MergeEntity(ctx, e)
		if err != nil {
			return fmt.Errorf("ingest: merge entity %q: %w", xe.Name, err)
		}
		r.remember(stored)
		r.resolved[norm] = stored
	}
	return nil
}

// similarCandidates finds, for each extracted entity without a handle or a
// name match among the candidates, the candidate of the same type whose
// name embedding is at least Config.EntitySimilarity close (unset: the
// embedder's own bar, lore.EntitySimilarity). It returns nil
// entries where there is none, and nothing without an embedder.
func (r *batchRun) similarCandidates(ctx context.Context, ents []lore.ExtractedEntity) ([]*lore.Entity, error) {
	out := make([]*lore.Entity, len(ents))
	if r.s.Embedder == nil || len(r.cands) == 0 {
		return out, nil
	}
	known := map[string]bool{}
	for _, c := range r.cands {
		known[c.NormalizedName] = true
		for _, a := range c.Aliases {
			known[lore.NormalizeName(a)] = true
		}
	}
	var idx []int
	var texts []string
	for i, xe := range ents {
		norm := lore.NormalizeName(xe.Name)
		if norm == "" || xe.Handle != 0 || known[norm] || r.isUser(xe.Name, xe.Type) {
			continue
		}
		idx = append(idx, i)
		texts = append(texts, xe.Name)
	}
	if len(idx) == 0 {
		return out, nil
	}
	for _, c := range r.cands {
		texts = append(texts, c.Name)
	}
	vecs, err := r.s.embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	candVecs := vecs[len(idx):]
	threshold := r.s.cfg().EntitySimilarity
	if threshold == 0 {
		threshold = lore.EntitySimilarity(r.s.Embedder)
	}
	for k, i := range idx {
		best, bestSim := -1, threshold
		for j, c := range r.cands {
			if t := entityType(ents[i].Type); t != c.Type {
				continue
			}
			if sim := lore.Cosine(vecs[k], candVecs[j]); sim >= bestSim {
				best, bestSim = j, sim
			}
		}
		if best >= 0 {
			out[i] = r.cands[best]
		}
	}
	return out, nil
}

// entityType is the type of an entity whose extractor gave none.
func entityType(t string) string {
	if t = strings.ToLower(strings.TrimSpace(t)); t == "" {
		return "thing"
	}
	return t
}

// entity returns the stored entity an extracted fact names, merging it when
// the batch has not met it yet.
func (r *batchRun) entity(ctx context.Context, name, typ string) (*lore.Entity, error) {
	if r.isUser(name, typ) {
		return r.userEntity(ctx)
	}
	if e := r.resolved[lore.NormalizeName(name)]; e != nil {
		return e, nil
	}
	first, last := r.seen()
	e, err := r.s.Store.MergeEntity(ctx, &lore.Entity{Scope: r.ns, Name: name, Type: entityType(typ), Mentions: 1, FirstSeen: first, LastSeen: last})
	if err != nil {
		return nil, fmt.Errorf("ingest: merge entity %q: %w", name, err)
	}
	r.remember(e)
	return e, nil
}

// sources keeps the episode ids of the batch among ids; with none, the
// whole batch is the source.
func (r *batchRun) sources(ids []string) []*lore.Episode {
	var out []*lore.Episode
	for _, id := range ids {
		if ep := r.eps[id]; ep != nil && !slices.Contains(out, ep) {
			out = append(out, ep)
		}
	}
	if len(out) == 0 {
		return r.order
	}
	return out
}

// applyFact merges one extracted fact, honouring its resolution against the
// candidate facts.
func (r *batchRun) applyFact(ctx context.Context, xf *lore.ExtractedFact) error {
	pred, err := lore.NormalizePredicate(xf.Predicate)
	if err != nil {
		r.reject("fact %q: %s", xf.Text, lore.ErrorMessage(err))
		return nil
	}
	// A name that normalizes to nothing ("-", "…") cannot be stored or
	// matched; it is dropped, not allowed to fail the batch.
	if lore.NormalizeName(xf.Subject) == "" || lore.NormalizeName(xf.Object) == "" {
		r.reject("fact %q lacks a subject or an object", xf.Text)
		return nil
	}
	subj, err := r.entity(ctx, xf.Subject, xf.SubjectType)
	if err != nil {
		return err
	}
	f := r.newFact(subj, pred, xf.Text, xf.Confidence, xf.ValidAt, xf.InvalidAt, r.sources(xf.EpisodeIDs))
	if xf.ObjectIsEntity {
		obj, err := r.entity(ctx, xf.Object, xf.ObjectType)
		if err != nil {
			return err
		}
		f.ObjectID, f.Object = obj.ID, obj.Name
	} else {
		f.Object = strings.TrimSpace(xf.Object)
	}
	if f.Text == "" {
		f.Text = fmt.Sprintf("%s %s %s", f.Subject, strings.ReplaceAll(pred, "_", " "), f.Object)
	}
	if subj.Type == lore.UserEntityType && (pred == "name" || pred == "is_named") && !xf.ObjectIsEntity {
		// "My name is Alex": later mentions of Alex are the user.
		if err := r.aliasUser(ctx, f.Object); err != nil {
			return err
		}
	}

	if !f.Current(r.now) {
		// An ending closes its own twin and nothing else, whatever the
		// extractor resolved it against: merge finds the twin by triple.
		return r.end(ctx, f)
	}
	res := xf.Resolution
	var cand *lore.Fact
	if res.Kind == "duplicate" || res.Kind == "contradicts" {
		if res.Handle < 1 || res.Handle > len(r.candFact) {
			r.reject("fact %q: %s of unknown candidate handle %d; taken as new", f.Text, res.Kind, res.Handle)
			res.Kind = "new"
		} else {
			cand = r.candFact[res.Handle-1]
		}
	}
	switch res.Kind {
	case "duplicate":
		// Restate the fact in the candidate's terms so the store merges
		// it into the candidate although the wording differed.
		f.SubjectID, f.Subject, f.Predicate = cand.SubjectID, cand.Subject, cand.Predicate
		f.ObjectID, f.Object, f.Text = cand.ObjectID, cand.Object, cand.Text
		return r.merge(ctx, f, noSupersede)
	case "contradicts":
		if err := r.invalidate(ctx, cand, f); err != nil {
			return err
		}
	}
	if xf.Replaces {
		return r.merge(ctx, f, supersedeAll)
	}
	return r.merge(ctx, f, supersedeSingle)
}

// newFact builds a fact of the batch's scope stated in the given episodes.
func (r *batchRun) newFact(subj *lore.Entity, pred, text string, conf float64, validAt, invalidAt *time.Time, srcs []*lore.Episode) *lore.Fact {
	first, last := timeRange(srcs)
	if conf <= 0 || conf > 1 {
		conf = defaultConfidence
	}
	if validAt == nil && (invalidAt == nil || invalidAt.After(first)) {
		// Absent a stated date, a fact holds from when it was said. A
		// fact said to have ended by then began at some unknown time.
		validAt = &first
	}
	ids := make([]string, len(srcs))
	for i, ep := range srcs {
		ids[i] = ep.ID
	}
	return &lore.Fact{
		Scope: r.scope, SubjectID: subj.ID, Subject: subj.Name, Predicate: pred,
		Text: strings.TrimSpace(text), Confidence: conf,
		ValidAt: validAt, InvalidAt: invalidAt,
		Count: 1, FirstSeen: first, LastSeen: last,
		SourceEpisodeIDs: ids, Extractor: r.name,
		// A fact drawn only from expiring episodes expires with the last.
		ExpiresAt: lore.ExpiryOf(srcs),
	}
}

// invalidate closes old because f contradicts it: it stopped being true when
// f became true, and was superseded now.
func (r *batchRun) invalidate(ctx context.Context, old, f *lore.Fact) error {
	if !old.Current(r.now) {
		return nil
	}
	at := f.FirstSeen
	if f.ValidAt != nil {
		at = *f.ValidAt
	}
	now := r.now
	upd, err := r.s.Store.UpdateFact(ctx, old.Scope, old.ID, lore.FactUpdate{
		InvalidAt: &at, ExpiredAt: &now, Event: lore.EventInvalidate, Actor: r.actor,
		Reason: "contradicted by: " + f.Text,
	})
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		// Deleted meanwhile; there is nothing left to close.
		return nil
	} else if err != nil {
		return fmt.Errorf("ingest: invalidate fact %s: %w", old.ID, err)
	}
	*old = *upd
	delete(r.stored, old.ID)
	r.events = append(r.events, lore.MemoryEvent{ID: upd.ID, Memory: upd.Text, Event: lore.EventInvalidate, Type: lore.KindFact})
	return nil
}

// supersession says which current facts of the same subject and predicate
// but another object a merged fact closes.
type supersession int

const (
	noSupersede     supersession = iota
	supersedeSingle              // only when the predicate is single-valued
	supersedeAll                 // whatever the predicate: the fact replaces them
)

// merge stores f. Under supersede, current facts of the same subject and
// predicate but another object are closed first — unless f is older than
// they are, in which case f is stored as already closed. A
// fact whose sources are already recorded on its stored twin is not counted
// twice, so re-running a job after a partial failure changes nothing.
func (r *batchRun) merge(ctx context.Context, f *lore.Fact, supersede supersession) error {
	existing, err := r.s.Store.FindFacts(ctx, lore.FactFilter{Scope: r.ns, SubjectID: f.SubjectID, Predicate: f.Predicate})
	if err != nil {
		return fmt.Errorf("ingest: find facts of %s %s: %w", f.Subject, f.Predicate, err)
	}
	key := f.ObjectKey()
	var others []*lore.Fact
	for _, e := range existing {
		if e.ObjectKey() == key {
			// A fact written through the API has no sources; each
			// statement of it counts.
			if len(f.SourceEpisodeIDs) > 0 && containsAll(e.SourceEpisodeIDs, f.SourceEpisodeIDs) {
				r.record(e, f.SourceEpisodeIDs)
				r.events = append(r.events, lore.MemoryEvent{ID: e.ID, Memory: e.Text, Event: lore.EventNone, Type: lore.KindFact})
				return nil
			}
			continue
		}
		others = append(others, e)
	}
	if supersede == supersedeAll || (supersede == supersedeSingle && r.single.Has(f.Predicate)) {
		for _, o := range others {
			if o.ValidAt != nil && f.ValidAt != nil && f.ValidAt.Before(*o.ValidAt) {
				// f was true before o: it arrived late, and o ended it.
				if f.InvalidAt == nil || o.ValidAt.Before(*f.InvalidAt) {
					end := *o.ValidAt
					f.InvalidAt = &end
				}
				continue
			}
			if err := r.invalidate(ctx, o, f); err != nil {
				return err
			}
		}
	}
	stored, kind, err := r.s.Store.MergeFact(ctx, f, r.actor)
	if err != nil {
		return fmt.Errorf("ingest: merge fact %q: %w", f.Text, err)
	}
	r.record(stored, f.SourceEpisodeIDs)
	r.stored[stored.ID] = stored
	r.events = append(r.events, factEvent(stored, kind, r.now))
	return nil
}

// end applies a fact that has already ended (InvalidAt at or before now):
// it closes the current fact with the same subject, predicate and object at
// f.InvalidAt, or, when there is none, stores f already closed. An ending
// closes nothing else and reopens nothing; one whose fact is already closed
// changes nothing, so re-running a job or restating an ending is harmless.
func (r *batchRun) end(ctx context.Context, f *lore.Fact) error {
	twins, err := r.s.Store.FindFacts(ctx, lore.FactFilter{Scope: r.ns, SubjectID: f.SubjectID, Predicate: f.Predicate, IncludeInvalidated: true})
	if err != nil {
		return fmt.Errorf("ingest: find facts of %s %s: %w", f.Subject, f.Predicate, err)
	}
	// The same value may be held as an entity or as a literal (one message
	// made "ICU nurse at Haukeland" an entity, the ending names it as
	// text): the name decides too.
	key, name := f.ObjectKey(), lore.NormalizeName(f.Object)
	twins = slices.DeleteFunc(twins, func(e *lore.Fact) bool { return e.ObjectKey() != key && lore.NormalizeName(e.Object) != name })
	for _, e := range twins {
		// A current twin that began after this ending is a later spell
		// of the same fact (an older message imported late); it stays.
		if !e.Current(r.now) || (e.ValidAt != nil && f.InvalidAt != nil && e.ValidAt.After(*f.InvalidAt)) {
			continue
		}
		now := r.now
		at := now
		if f.InvalidAt != nil {
			at = *f.InvalidAt
		}
		// The turn that ended it becomes one of its sources.
		upd, err := r.s.Store.UpdateFact(ctx, e.Scope, e.ID, lore.FactUpdate{
			InvalidAt: &at, ExpiredAt: &now, Event: lore.EventInvalidate, Actor: r.actor,
			Reason: "ended: " + f.Text, AddSources: f.SourceEpisodeIDs,
		})
		if lore.ErrorCode(err) == lore.ENOTFOUND {
			continue // deleted meanwhile
		} else if err != nil {
			return fmt.Errorf("ingest: end fact %s: %w", e.ID, err)
		}
		delete(r.stored, e.ID)
		r.record(upd, f.SourceEpisodeIDs)
		r.events = append(r.events, lore.MemoryEvent{ID: upd.ID, Memory: upd.Text, Event: lore.EventInvalidate, Type: lore.KindFact})
		return nil
	}
	for _, e := range twins {
		if !e.Current(r.now) {
			r.events = append(r.events, lore.MemoryEvent{ID: e.ID, Memory: e.Text, Event: lore.EventNone, Type: lore.KindFact})
			return nil
		}
	}
	// Nothing to close: the fact is kept as history, already closed. The
	// store never merges a closed fact into a current one.
	stored, kind, err := r.s.Store.MergeFact(ctx, f, r.actor)
	if err != nil {
		return fmt.Errorf("ingest: store ended fact %q: %w", f.Text, err)
	}
	r.record(stored, f.SourceEpisodeIDs)
	r.stored[stored.ID] = stored
	r.events = append(r.events, factEvent(stored, kind, r.now))
	return nil
}

// record notes a fact as extracted from the given episodes, for their index
// keys.
func (r *batchRun) record(f *lore.Fact, epIDs []string) {
	for _, id := range epIDs {
		if !slices.ContainsFunc(r.byEp[id], func(g *lore.Fact) bool { return g.ID == f.ID }) {
			r.byEp[id] = append(r.byEp[id], f)
		}
	}
}

// containsAll reports whether every id of sub is in set.
func containsAll(set, sub []string) bool {
	for _, id := range sub {
		if !slices.Contains(set, id) {
			return false
		}
	}
	return true
}

// applyProfile stores a profile signal as a fact of the user entity. Only
// what the user said counts: an assistant's reply may be wrong.
func (r *batchRun) applyProfile(ctx context.Context, p lore.ProfileSignal) error {
	pred, err := lore.NormalizePredicate(p.Key)
	if err != nil {
		r.reject("profile signal: %s", lore.ErrorMessage(err))
		return nil
	}
	value := strings.TrimSpace(p.Value)
	if value == "" {
		r.reject("profile signal %q has no value", p.Key)
		return nil
	}
	var srcs []*lore.Episode
	for _, ep := range r.sources(p.EpisodeIDs) {
		if ep.Role == "user" {
			srcs = append(srcs, ep)
		}
	}
	if len(srcs) == 0 {
		r.reject("profile signal %q is not supported by a user message", p.Key)
		return nil
	}
	u, err := r.userEntity(ctx)
	if err != nil {
		return err
	}
	text := fmt.Sprintf("%s's %s is %s", u.Name, strings.ReplaceAll(pred, "_", " "), value)
	f := r.newFact(u, pred, text, p.Confidence, nil, nil, srcs)
	f.Object = value
	f.Metadata = map[string]any{"profile": true}
	return r.merge(ctx, f, supersedeSingle)
}

// factEvent reports a stored fact; one that no longer holds at now carries
// the time it ended.
func factEvent(f *lore.Fact, kind lore.EventKind, now time.Time) lore.MemoryEvent {
	ev := lore.MemoryEvent{ID: f.ID, Memory: f.Text, Event: kind, Type: lore.KindFact}
	if f.InvalidAt != nil && !f.InvalidAt.After(now) {
		at := f.InvalidAt.UTC()
		ev.InvalidAt = &at
	}
	return ev
}
