package neo4j

import (
	"context"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.KeyStore = (*Store)(nil)

// CreateKey stores k, assigning ID and CreatedAt where empty.
func (s *Store) CreateKey(ctx context.Context, k *lore.APIKey) error {
	if err := k.Validate(); err != nil {
		return err
	}
	if k.ID == "" {
		k.ID = lore.NewID()
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = s.now().UTC()
	}
	row := map[string]any{
		"id": k.ID, "hash": k.Hash, "tenant_id": k.TenantID, "role": k.Role, "user_id": k.UserID,
		"agent_id": k.AgentID, "admin": k.Admin, "created_at": k.CreatedAt.UTC(),
		"expires_at": utcPtr(k.ExpiresAt), "revoked_at": utcPtr(k.RevokedAt),
	}
	_, err := write(ctx, s, "create key", func(r txRunner) (struct{}, error) {
		_, err := r.run("CreateKey", shape{}, map[string]any{"key": row})
		return struct{}{}, err
	})
	if lore.ErrorCode(err) == lore.ECONFLICT {
		return lore.Errorf(lore.ECONFLICT, "key %q already exists", k.ID)
	}
	return err
}

// KeyByHash returns the key with that hash, or ENOTFOUND.
func (s *Store) KeyByHash(ctx context.Context, hash string) (*lore.APIKey, error) {
	keys, err := s.readKeys(ctx, "key by hash", "KeyByHash", map[string]any{"hash": hash})
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, lore.Errorf(lore.ENOTFOUND, "no such key")
	}
	return keys[0], nil
}

// ListKeys returns the tenant's keys (every key for ""), oldest first.
func (s *Store) ListKeys(ctx context.Context, tenantID string) ([]*lore.APIKey, error) {
	return s.readKeys(ctx, "list keys", "ListKeys", map[string]any{"tenant_id": tenantID})
}

// RevokeKey marks a key revoked, keeping an earlier revocation time.
func (s *Store) RevokeKey(ctx context.Context, tenantID, id string, at time.Time) (*lore.APIKey, error) {
	return write(ctx, s, "revoke key", func(r txRunner) (*lore.APIKey, error) {
		recs, err := r.run("RevokeKey", shape{}, map[string]any{"tenant_id": tenantID, "id": id, "at": at.UTC()})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "key %q not found", id)
		}
		p, err := nodeProps(recs[0], "k")
		if err != nil {
			return nil, err
		}
		return toKey(p), nil
	})
}

// HasKeys reports whether any key exists.
func (s *Store) HasKeys(ctx context.Context) (bool, error) {
	return read(ctx, s, "has keys", func(r txRunner) (bool, error) {
		recs, err := r.run("HasKeys", shape{}, nil)
		if err != nil || len(recs) == 0 {
			return false, err
		}
		v, _ := recs[0].Get("has")
		return v == true, nil
	})
}

// readKeys runs a statement that returns key nodes as k.
func (s *Store) readKeys(ctx context.Context, op, stmt string, params map[string]any) ([]*lore.APIKey, error) {
	return read(ctx, s, op, func(r txRunner) ([]*lore.APIKey, error) {
		recs, err := r.run(stmt, shape{}, params)
		if err != nil {
			return nil, err
		}
		out := make([]*lore.APIKey, 0, len(recs))
		for _, rec := range recs {
			p, err := nodeProps(rec, "k")
			if err != nil {
				return nil, err
			}
			out = append(out, toKey(p))
		}
		return out, nil
	})
}

// toKey reads an APIKey node.
func toKey(p props) *lore.APIKey {
	return &lore.APIKey{
		ID: p.str("id"), Hash: p.str("hash"), TenantID: p.str("tenant_id"), Role: p.str("role"),
		UserID: p.str("user_id"), AgentID: p.str("agent_id"), Admin: p.bool("admin"),
		CreatedAt: p.time("created_at"), ExpiresAt: p.timePtr("expires_at"), RevokedAt: p.timePtr("revoked_at"),
	}
}
