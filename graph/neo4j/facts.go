package neo4j

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// dedupKey identifies a current fact for deduplication: namespace, subject,
// predicate and object. It is hashed so that long literal objects stay
// within the index's key size.
func dedupKey(ns lore.Scope, subjectID, predicate, objectKey string) string {
	h := sha256.New()
	for _, part := range []string{ns.TenantID, ns.UserID, ns.AgentID, subjectID, predicate, objectKey} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// MergeFact adds f, or merges it into the current fact with the same
// namespace, subject, predicate and object, and records ADD or MERGE. A fact
// given already closed is always added.
func (s *Store) MergeFact(ctx context.Context, f *lore.Fact, actor string) (*lore.Fact, lore.EventKind, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, "", err
	}
	if f.SubjectID == "" {
		return nil, "", lore.Errorf(lore.EINVALID, "subject_id is required")
	}
	pred, err := lore.NormalizePredicate(f.Predicate)
	if err != nil {
		return nil, "", err
	}
	if f.ObjectID == "" && strings.TrimSpace(f.Object) == "" {
		return nil, "", lore.Errorf(lore.EINVALID, "object or object_id is required")
	}
	if f.ID != "" {
		if err := lore.ValidateID("id", f.ID); err != nil {
			return nil, "", err
		}
	}
	ns := f.Scope.Namespace()
	now := s.now().UTC()
	closed := !f.Current(now)
	first, last := orNow(f.FirstSeen, now), orNow(f.LastSeen, now)
	if last.Before(first) {
		last = first
	}
	sources := []string{}
	for _, id := range f.SourceEpisodeIDs {
		if id != "" && !slices.Contains(sources, id) {
			sources = append(sources, id)
		}
	}
	md, err := jsonParam(f.Metadata)
	if err != nil {
		return nil, "", err
	}
	id := f.ID
	if id == "" {
		id = lore.NewID()
	}
	ends := scopeParams(ns)
	ends["subject_id"], ends["object_id"] = f.SubjectID, nil
	if f.ObjectID != "" {
		ends["object_id"] = f.ObjectID
	}

	type merged struct {
		fact  *lore.Fact
		event lore.EventKind
	}
	var out merged
	for range mergeRetries {
		out, err = write(ctx, s, "merge fact", func(r txRunner) (merged, error) {
			recs, err := r.run("MergeFactEndpoints", shape{}, ends)
			if err != nil {
				return merged{}, err
			}
			row := recs[0]
			subject, _ := row.Get("subject")
			if subject == nil {
				return merged{}, lore.Errorf(lore.ENOTFOUND, "subject entity %q not found", f.SubjectID)
			}
			objectID, _ := row.Get("object_id")
			if f.ObjectID != "" && objectID == nil {
				return merged{}, lore.Errorf(lore.ENOTFOUND, "object entity %q not found", f.ObjectID)
			}
			subjectName, object := f.Subject, f.Object
			if subjectName == "" {
				subjectName, _ = subject.(string)
			}
			if f.ObjectID != "" && object == "" {
				name, _ := row.Get("object")
				object, _ = name.(string)
			}
			key := (&lore.Fact{ObjectID: f.ObjectID, Object: object}).ObjectKey()
			fact := map[string]any{
				"id": id, "tenant_id": f.Scope.TenantID, "user_id": f.Scope.UserID,
				"agent_id": f.Scope.AgentID, "run_id": f.Scope.RunID,
				"subject_id": f.SubjectID, "subject": subjectName, "predicate": pred,
				"object_id": ends["object_id"], "object": object, "object_key": key,
				"text": f.Text, "confidence": f.Confidence,
				"valid_at": utcPtr(f.ValidAt), "invalid_at": utcPtr(f.InvalidAt), "expired_at": utcPtr(f.ExpiredAt),
				"created_at": now, "updated_at": now, "first_seen": first, "last_seen": last,
				"source_episode_ids": sources, "extractor": f.Extractor, "metadata": md,
				"expires_at": utcPtr(f.ExpiresAt),
			}
			dedup := dedupKey(ns, f.SubjectID, pred, key)
			if closed {
				// A fact given already closed is history: a key of its
				// own makes MERGE create it rather than merge it into
				// a current twin, and MergeFact.cypher then drops it.
				dedup = "closed:" + id
			}
			recs, err = r.run("MergeFact", shape{}, map[string]any{
				"dedup_key": dedup,
				"fact":      fact,
				"count":     int64(max(f.Count, 1)),
				"history":   historyRow(id, f.Scope, lore.EventAdd, actor, "", now),
			})
			if err != nil {
				return merged{}, err
			}
			if len(recs) == 0 {
				return merged{}, lore.Errorf(lore.ECONFLICT, "subject entity %q changed during the merge", f.SubjectID)
			}
			p, err := nodeProps(recs[0], "f")
			if err != nil {
				return merged{}, err
			}
			stored, err := toFact(p)
			if err != nil {
				return merged{}, err
			}
			ev := lore.EventMerge
			if created, _ := recs[0].Get("created"); created == true {
				ev = lore.EventAdd
			}
			if err := r.outbox(lore.OutboxEntry{Scope: stored.Scope, Kind: lore.KindFact, MemoryID: stored.ID}); err != nil {
				return merged{}, err
			}
			return merged{stored, ev}, nil
		})
		if lore.ErrorCode(err) != lore.ECONFLICT {
			break
		}
	}
	if err != nil {
		return nil, "", err
	}
	return out.fact, out.event, nil
}

// FindFacts returns the facts the filter selects, by LastSeen descending.
func (s *Store) FindFacts(ctx context.Context, f lore.FactFilter) ([]*lore.Fact, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, err
	}
	skip, limit, err := limitParams(f.Limit, f.Offset)
	if err != nil {
		return nil, err
	}
	pred := f.Predicate
	if pred != "" {
		if pred, err = lore.NormalizePredicate(pred); err != nil {
			return nil, err
		}
	}
	sh := scopeShape(f.Scope)
	sh.IDs, sh.Subject, sh.Object, sh.Entity = f.IDs != nil, f.SubjectID != "", f.ObjectID != "", f.EntityID != ""
	sh.Predicate, sh.Since, sh.Until, sh.Current = pred != "", f.Since != nil, f.Until != nil, !f.IncludeInvalidated
	params := scopeParams(f.Scope)
	params["ids"], params["subject_id"], params["object_id"] = stringsParam(f.IDs), f.SubjectID, f.ObjectID
	params["entity_id"], params["predicate"] = f.EntityID, pred
	params["since"], params["until"], params["now"] = utcPtr(f.Since), utcPtr(f.Until), s.now().UTC()
	params["offset"], params["limit"] = skip, limit
	return read(ctx, s, "find facts", func(r txRunner) ([]*lore.Fact, error) {
		recs, err := r.run("FindFacts", sh, params)
		if err != nil {
			return nil, err
		}
		out := make([]*lore.Fact, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "f")
			if err != nil {
				return nil, err
			}
			fact, err := toFact(p)
			if err != nil {
				return nil, err
			}
			out = append(out, fact)
		}
		return out, nil
	})
}

// UpdateFact changes a fact and records one history event (UPDATE unless
// upd.Event says otherwise). A fact that gets invalidated or expired stops
// absorbing merges.
func (s *Store) UpdateFact(ctx context.Context, scope lore.Scope, id string, upd lore.FactUpdate) (*lore.Fact, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	if upd.Confidence != nil && (*upd.Confidence < 0 || *upd.Confidence > 1) {
		return nil, lore.Errorf(lore.EINVALID, "confidence %v is outside 0..1", *upd.Confidence)
	}
	ev := upd.Event
	if ev == "" {
		ev = lore.EventUpdate
	}
	md, err := jsonParam(upd.Metadata)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	params := scopeParams(scope)
	params["id"], params["now"], params["metadata"] = id, now, md
	params["text"], params["confidence"] = nil, nil
	if upd.Text != nil {
		params["text"] = *upd.Text
	}
	if upd.Confidence != nil {
		params["confidence"] = *upd.Confidence
	}
	params["invalid_at"], params["expired_at"] = utcPtr(upd.InvalidAt), utcPtr(upd.ExpiredAt)
	params["add_sources"] = dedupedIDs(upd.AddSources)
	params["history"] = historyRow(id, scope, ev, upd.Actor, upd.Reason, now)
	if upd.Triple != nil {
		return s.updateFactTriple(ctx, scope, id, *upd.Triple, params)
	}
	return write(ctx, s, "update fact", func(r txRunner) (*lore.Fact, error) {
		recs, err := r.run("UpdateFact", scopeShape(scope), params)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "fact %q not found", id)
		}
		p, err := nodeProps(recs[0], "f")
		if err != nil {
			return nil, err
		}
		f, err := toFact(p)
		if err != nil {
			return nil, err
		}
		return f, r.factUpdated(f, upd.Text != nil, upd.AddSources)
	})
}

// dedupedIDs is ids without blanks and repeats, never nil (Cypher lists).
func dedupedIDs(ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if id != "" && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// DeleteFact removes a fact, with its ranking signals, and records a DELETE
// event; its history stays.
func (s *Store) DeleteFact(ctx context.Context, scope lore.Scope, id string, actor string) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	params := scopeParams(scope)
	params["id"] = id
	params["history"] = historyRow(id, scope, lore.EventDelete, actor, "", s.now())
	return s.deleteOne(ctx, "DeleteFact", "fact", id, scope, params, txRunner.factOutbox)
}

// updateFactTriple runs UpdateFact for an update that changes what the fact
// states: it checks the new ends and that no other current fact states the
// triple, then moves the fact, all in one transaction. params are
// UpdateFact's.
func (s *Store) updateFactTriple(ctx context.Context, scope lore.Scope, id string, t lore.Triple, params map[string]any) (*lore.Fact, error) {
	if t.SubjectID == "" {
		return nil, lore.Errorf(lore.EINVALID, "subject_id is required")
	}
	pred, err := lore.NormalizePredicate(t.Predicate)
	if err != nil {
		return nil, err
	}
	if t.ObjectID == "" && strings.TrimSpace(t.Object) == "" {
		return nil, lore.Errorf(lore.EINVALID, "object or object_id is required")
	}
	ns := scope.Namespace()
	ends := scopeParams(ns)
	ends["subject_id"], ends["object_id"] = t.SubjectID, nil
	if t.ObjectID != "" {
		ends["object_id"] = t.ObjectID
	}
	return write(ctx, s, "update fact", func(r txRunner) (*lore.Fact, error) {
		recs, err := r.run("MergeFactEndpoints", shape{}, ends)
		if err != nil {
			return nil, err
		}
		row := recs[0]
		subject, _ := row.Get("subject")
		if subject == nil {
			return nil, lore.Errorf(lore.EINVALID, "subject_id %q is not an entity of this scope", t.SubjectID)
		}
		objectID, _ := row.Get("object_id")
		if t.ObjectID != "" && objectID == nil {
			return nil, lore.Errorf(lore.EINVALID, "object_id %q is not an entity of this scope", t.ObjectID)
		}
		subjectName, object := t.Subject, strings.TrimSpace(t.Object)
		if subjectName == "" {
			subjectName, _ = subject.(string)
		}
		if t.ObjectID != "" && object == "" {
			name, _ := row.Get("object")
			object, _ = name.(string)
		}
		key := (&lore.Fact{ObjectID: t.ObjectID, Object: object}).ObjectKey()
		dedup := dedupKey(ns, t.SubjectID, pred, key)
		check := scopeParams(scope)
		check["id"], check["dedup_key"] = id, dedup
		recs, err = r.run("FactTwin", scopeShape(scope), check)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "fact %q not found", id)
		}
		if twin, _ := recs[0].Get("id"); twin != nil {
			text, _ := recs[0].Get("text")
			return nil, lore.Errorf(lore.ECONFLICT, "fact %v already states this (%q); change or delete one of them", twin, text)
		}
		params["subject_id"], params["subject"], params["predicate"] = t.SubjectID, subjectName, pred
		params["object_id"], params["object"], params["object_key"], params["dedup_key"] = ends["object_id"], object, key, dedup
		recs, err = r.run("UpdateFactTriple", scopeShape(scope), params)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "fact %q not found", id)
		}
		p, err := nodeProps(recs[0], "f")
		if err != nil {
			return nil, err
		}
		f, err := toFact(p)
		if err != nil {
			return nil, err
		}
		return f, r.factUpdated(f, true, nil)
	})
}
