package neo4j

import (
	"context"
	"slices"

	"github.com/lore-memory/lore"
)

var _ lore.NameRewriter = (*Store)(nil)

// RewriteNames rewrites the names the scope's graph stores, in one
// transaction: entities' names (with normalized names) and aliases,
// facts' subjects and objects (with their keys), and episodes' speakers
// (with the Speaker nodes that count them).
func (s *Store) RewriteNames(ctx context.Context, scope lore.Scope, fn func(lore.NameKind, string) (string, error)) (int, error) {
	if err := scope.Validate(); err != nil {
		return 0, err
	}
	ns := scope.Namespace()
	sh := scopeShape(ns)
	return write(ctx, s, "rewrite names", func(r txRunner) (int, error) {
		n := 0
		recs, err := r.run("RewriteNamesEntities", sh, scopeParams(ns))
		if err != nil {
			return 0, err
		}
		for _, rec := range recs {
			id, name, aliases := str(rec.Get("id")), str(rec.Get("name")), strs(rec.Get("aliases"))
			newName, err := fn(lore.NameEntity, name)
			if err != nil {
				return 0, err
			}
			norm := lore.NormalizeName(newName)
			changed := 0
			if newName != name {
				changed++
			}
			newAliases := []string{}
			for _, a := range aliases {
				v, err := fn(lore.NameAlias, a)
				if err != nil {
					return 0, err
				}
				if v != a {
					changed++
				}
				if v != norm && !slices.Contains(newAliases, v) {
					newAliases = append(newAliases, v)
				}
			}
			if changed == 0 {
				continue
			}
			if _, err := r.run("RewriteEntityNames", shape{}, map[string]any{"id": id, "name": newName, "normalized_name": norm, "aliases": newAliases}); err != nil {
				return 0, err
			}
			n += changed
		}
		recs, err = r.run("RewriteNamesFacts", sh, scopeParams(ns))
		if err != nil {
			return 0, err
		}
		for _, rec := range recs {
			subject, objectID, object := str(rec.Get("subject")), str(rec.Get("object_id")), str(rec.Get("object"))
			newSubject, err := fn(lore.NameSubject, subject)
			if err != nil {
				return 0, err
			}
			kind := lore.NameLiteral
			if objectID != "" {
				kind = lore.NameObject
			}
			newObject, err := fn(kind, object)
			if err != nil {
				return 0, err
			}
			if newSubject == subject && newObject == object {
				continue
			}
			fns := lore.Scope{TenantID: str(rec.Get("tenant_id")), UserID: str(rec.Get("user_id")), AgentID: str(rec.Get("agent_id"))}
			key := (&lore.Fact{ObjectID: objectID, Object: newObject}).ObjectKey()
			if _, err := r.run("RewriteFactNames", shape{}, map[string]any{"id": str(rec.Get("id")), "subject": newSubject,
				"object": newObject, "object_key": key,
				"dedup_key": dedupKey(fns, str(rec.Get("subject_id")), str(rec.Get("predicate")), key)}); err != nil {
				return 0, err
			}
			n++
		}
		recs, err = r.run("RewriteNamesSpeakers", sh, scopeParams(ns))
		if err != nil {
			return 0, err
		}
		for _, rec := range recs {
			old := str(rec.Get("speaker"))
			v, err := fn(lore.NameSpeaker, old)
			if err != nil {
				return 0, err
			}
			if v == old {
				continue
			}
			params := scopeParams(ns)
			params["old"], params["new"] = old, v
			got, err := r.run("RewriteSpeaker", sh, params)
			if err != nil {
				return 0, err
			}
			if len(got) > 0 {
				c, _ := got[0].Get("episodes")
				k, _ := c.(int64)
				n += int(k)
			}
			if _, err := r.run("RewriteSpeakerNodes", sh, params); err != nil {
				return 0, err
			}
		}
		return n, nil
	})
}

// str reads a string value of a record, "" when absent or null.
func str(v any, _ bool) string {
	s, _ := v.(string)
	return s
}

// strs reads a list of strings of a record.
func strs(v any, _ bool) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
