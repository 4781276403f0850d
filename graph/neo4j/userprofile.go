package neo4j

import (
	"context"

	"github.com/lore-memory/lore"
)

var _ lore.ProfileStore = (*Store)(nil)

// A user's profile is part of their graph: (:User)-[:HAS_PROFILE]->
// (:ProfileEntry) for current entries, (:User)-[:HAD_PROFILE]->
// (:ProfileHistory) for replaced ones. Keys and values are properties,
// never labels.

// PutProfileEntry writes e under lore.PlanProfileWrite's precedence rules.
// The transaction first takes the user node's lock (LockProfile), so the
// stored entries it reads cannot change before it writes.
func (s *Store) PutProfileEntry(ctx context.Context, scope lore.Scope, e lore.ProfileEntry) (lore.ProfileWrite, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return lore.ProfileWrite{}, err
	}
	if err := e.Normalize(s.now().UTC()); err != nil {
		return lore.ProfileWrite{}, err
	}
	user := map[string]any{"tenant_id": scope.TenantID, "user_id": scope.UserID}
	return write(ctx, s, "put profile entry", func(r txRunner) (lore.ProfileWrite, error) {
		if _, err := r.run("LockProfile", shape{}, user); err != nil {
			return lore.ProfileWrite{}, err
		}
		stored, err := profileRows(r, "ProfileEntriesForKey", "p", withParams(user, "key", e.Key))
		if err != nil {
			return lore.ProfileWrite{}, err
		}
		out := lore.PlanProfileWrite(stored, e)
		if !out.Written {
			return out, nil
		}
		now := s.now().UTC()
		for i, old := range out.Replaced {
			h := profileProps(old)
			h["tenant_id"], h["user_id"], h["replaced_at"], h["seq"] = scope.TenantID, scope.UserID, now, int64(i)
			if _, err := r.run("ReplaceProfileEntry", shape{}, withParams(user, "key", old.Key,
				"value_norm", lore.ProfileValueKey(old), "history", h)); err != nil {
				return lore.ProfileWrite{}, err
			}
		}
		p := out.Entry
		_, err = r.run("PutProfileEntry", shape{}, withParams(user, "key", p.Key,
			"value_norm", lore.ProfileValueKey(*p), "entry", profileProps(*p)))
		return out, err
	})
}

// ProfileEntries returns the user's current entries by key, then value.
func (s *Store) ProfileEntries(ctx context.Context, scope lore.Scope) ([]lore.ProfileEntry, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return nil, err
	}
	return read(ctx, s, "profile entries", func(r txRunner) ([]lore.ProfileEntry, error) {
		return profileRows(r, "ProfileEntries", "p", map[string]any{"tenant_id": scope.TenantID, "user_id": scope.UserID})
	})
}

// ProfileHistory returns the replaced entries of key ("" for all), oldest
// first.
func (s *Store) ProfileHistory(ctx context.Context, scope lore.Scope, key string) ([]lore.ProfileEntry, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return nil, err
	}
	return read(ctx, s, "profile history", func(r txRunner) ([]lore.ProfileEntry, error) {
		return profileRows(r, "ProfileHistory", "h", map[string]any{"tenant_id": scope.TenantID, "user_id": scope.UserID, "key": key})
	})
}

// DeleteProfileKey removes key's entries and history.
func (s *Store) DeleteProfileKey(ctx context.Context, scope lore.Scope, key string) (int, error) {
	if err := lore.ValidateProfileScope(scope); err != nil {
		return 0, err
	}
	params := map[string]any{"tenant_id": scope.TenantID, "user_id": scope.UserID, "key": key}
	n, err := write(ctx, s, "delete profile key", func(r txRunner) (int64, error) {
		if _, err := r.run("DeleteProfileKeyHistory", shape{}, params); err != nil {
			return 0, err
		}
		recs, err := r.run("DeleteProfileKey", shape{}, params)
		if err != nil || len(recs) == 0 {
			return 0, err
		}
		v, _ := recs[0].Get("deleted")
		n, _ := v.(int64)
		return n, nil
	})
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, lore.Errorf(lore.ENOTFOUND, "profile key %q not found", key)
	}
	return int(n), nil
}

// deleteScopeProfile removes, in batches, the profiles an erase of sc
// covers: the user's when sc is a whole user, the tenant's when sc is a
// tenant. An erase of one agent or run of a user leaves the profile.
func (s *Store) deleteScopeProfile(ctx context.Context, sc lore.Scope) error {
	if sc.AgentID != "" || sc.RunID != "" {
		return nil
	}
	params := scopeParams(sc)
	params["batch"] = int64(s.deleteBatch)
	for _, stmt := range []string{"DeleteScopeProfile", "DeleteScopeProfileHistory"} {
		for {
			n, err := write(ctx, s, "delete scope profile", func(r txRunner) (int64, error) {
				recs, err := r.run(stmt, shape{User: sc.UserID != ""}, params)
				if err != nil {
					return 0, err
				}
				v, _ := recs[0].Get("deleted")
				n, _ := v.(int64)
				return n, nil
			})
			if err != nil {
				return err
			}
			if n < int64(s.deleteBatch) {
				break
			}
		}
	}
	return nil
}

// profileRows runs a statement returning profile nodes in column col.
func profileRows(r txRunner, stmt, col string, params map[string]any) ([]lore.ProfileEntry, error) {
	recs, err := r.run(stmt, shape{}, params)
	if err != nil {
		return nil, err
	}
	out := make([]lore.ProfileEntry, 0, len(recs))
	for _, rec := range recs {
		p, err := nodeProps(rec, col)
		if err != nil {
			return nil, err
		}
		e := lore.ProfileEntry{
			Key: p.str("key"), Value: p.str("value"), Confidence: p.float("confidence"),
			Source: lore.ProfileSource(p.str("source")), Evidence: p.strs("evidence"), UpdatedAt: p.time("updated_at"),
			ReplacedAt: p.timePtr("replaced_at"),
			// Under encryption value_norm is a keyed token of the value
			// (lore.ProfileEntry.ValueKey), so PlanProfileWrite compares it.
			ValueKey: p.str("value_norm"),
		}
		if e.Evidence == nil {
			e.Evidence = []string{}
		}
		out = append(out, e)
	}
	return out, nil
}

// profileProps are an entry's stored properties.
func profileProps(e lore.ProfileEntry) map[string]any {
	return map[string]any{
		"key": e.Key, "value": e.Value, "value_norm": lore.ProfileValueKey(e), "confidence": e.Confidence,
		"source": string(e.Source), "evidence": stringsParam(e.Evidence), "updated_at": e.UpdatedAt.UTC(),
	}
}

// withParams returns a copy of base with more key, value pairs.
func withParams(base map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(base)+len(kv)/2)
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
