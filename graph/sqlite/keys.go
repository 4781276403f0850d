package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.KeyStore = (*Store)(nil)

// keyColumns lists the columns scanKey reads, in order.
const keyColumns = `id, hash, tenant_id, role, user_id, agent_id, admin, created_at, expires_at, revoked_at`

// CreateKey stores k, assigning ID and CreatedAt where empty.
func (s *Store) CreateKey(ctx context.Context, k *lore.APIKey) error {
	if err := k.Validate(); err != nil {
		return err
	}
	if k.ID == "" {
		k.ID = newID()
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = s.clock()
	}
	k.CreatedAt, k.ExpiresAt, k.RevokedAt = normTime(k.CreatedAt), normTimePtr(k.ExpiresAt), normTimePtr(k.RevokedAt)
	_, err := s.w.ExecContext(ctx, `INSERT INTO api_keys (`+keyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.Hash, k.TenantID, k.Role, k.UserID, k.AgentID, k.Admin, micros(k.CreatedAt),
		microsPtr(k.ExpiresAt), microsPtr(k.RevokedAt))
	if isConstraint(err) {
		return lore.Errorf(lore.ECONFLICT, "key %q already exists", k.ID)
	}
	return wrap("create key", err)
}

// KeyByHash returns the key with that hash, or ENOTFOUND.
func (s *Store) KeyByHash(ctx context.Context, hash string) (*lore.APIKey, error) {
	k, err := scanKey(s.r.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, lore.Errorf(lore.ENOTFOUND, "no such key")
	}
	return k, wrap("key by hash", err)
}

// ListKeys returns the tenant's keys (every key for ""), oldest first.
func (s *Store) ListKeys(ctx context.Context, tenantID string) ([]*lore.APIKey, error) {
	var w where
	if tenantID != "" {
		w.add("tenant_id = ?", tenantID)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE `+w.sql()+` ORDER BY created_at, id`, w.args...)
	if err != nil {
		return nil, wrap("list keys", err)
	}
	defer rows.Close()
	out := []*lore.APIKey{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, wrap("list keys", err)
		}
		out = append(out, k)
	}
	return out, wrap("list keys", rows.Err())
}

// RevokeKey marks a key revoked, keeping an earlier revocation time.
func (s *Store) RevokeKey(ctx context.Context, tenantID, id string, at time.Time) (*lore.APIKey, error) {
	var out *lore.APIKey
	err := s.write(ctx, func(tx *sql.Tx) error {
		w := where{}
		w.add("id = ?", id)
		if tenantID != "" {
			w.add("tenant_id = ?", tenantID)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE `+w.sql(),
			append([]any{micros(normTime(at))}, w.args...)...); err != nil {
			return err
		}
		k, err := scanKey(tx.QueryRowContext(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE `+w.sql(), w.args...))
		if errors.Is(err, sql.ErrNoRows) {
			return lore.Errorf(lore.ENOTFOUND, "key %q not found", id)
		}
		out = k
		return err
	})
	return out, wrap("revoke key", err)
}

// HasKeys reports whether any key exists.
func (s *Store) HasKeys(ctx context.Context) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM api_keys)`).Scan(&n)
	return n == 1, wrap("has keys", err)
}

// scanKey reads one row of keyColumns.
func scanKey(row interface{ Scan(...any) error }) (*lore.APIKey, error) {
	var k lore.APIKey
	var created int64
	var expires, revoked sql.NullInt64
	if err := row.Scan(&k.ID, &k.Hash, &k.TenantID, &k.Role, &k.UserID, &k.AgentID, &k.Admin, &created, &expires, &revoked); err != nil {
		return nil, err
	}
	k.CreatedAt, k.ExpiresAt, k.RevokedAt = fromMicros(created), fromNullMicros(expires), fromNullMicros(revoked)
	return &k, nil
}
