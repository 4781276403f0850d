package lore

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"time"
)

// KeyPrefix starts every API key, so that a leaked key is recognizable by
// secret scanners and a request can tell a key from other bearer tokens.
const KeyPrefix = "lore_"

// Key roles that limit what a key may do within what its tenant and pins
// allow. Any other role (none, or a name the retrieval policies know, such
// as "coach") may read, write, erase and export its users' memories;
// managing keys, erasing a tenant, reading the audit log and setting
// retention need Admin whatever the role.
const (
	RoleReader = "reader" // read and search only
	RoleWriter = "writer" // read, search, add, update and delete single memories; no erase, no export
)

// APIKey is an API key as the store holds it: never the key itself, only
// its keyed hash (HMAC-SHA256 under the server's key secret), so a copy of
// the store does not let anyone authenticate.
//
// A key fixes its tenant; UserID or AgentID, when set, pin it to one user
// or one agent of that tenant. Admin keys may also manage the tenant's keys.
type APIKey struct {
	ID        string     `json:"id"`
	TenantID  string     `json:"tenant_id"`
	Role      string     `json:"role,omitempty"`
	UserID    string     `json:"user_id,omitempty"`
	AgentID   string     `json:"agent_id,omitempty"`
	Admin     bool       `json:"admin"`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
	// Hash is the hex HMAC-SHA256 of the key under the server's secret.
	Hash string `json:"-"`
}

// Validate reports EINVALID unless k names a tenant, pins at most one of a
// user and an agent, and every identifier is valid.
func (k *APIKey) Validate() error {
	for _, f := range []struct{ name, value string }{
		{"tenant_id", k.TenantID}, {"role", k.Role}, {"user_id", k.UserID}, {"agent_id", k.AgentID},
	} {
		if err := ValidateID(f.name, f.value); err != nil {
			return err
		}
	}
	if k.TenantID == "" {
		return Errorf(EINVALID, "tenant_id is required")
	}
	if k.UserID != "" && k.AgentID != "" {
		return Errorf(EINVALID, "a key pins a user or an agent, not both")
	}
	if len(k.Hash) != 2*sha256.Size {
		return Errorf(EINVALID, "key hash must be a hex HMAC-SHA256")
	}
	return nil
}

// Usable reports whether the key authenticates at now: neither revoked nor
// expired.
func (k *APIKey) Usable(now time.Time) bool {
	return k.RevokedAt == nil && (k.ExpiresAt == nil || now.Before(*k.ExpiresAt))
}

// KeyStore holds API keys. Implementations: graph/sqlite and graph/neo4j;
// storetest covers both.
type KeyStore interface {
	// CreateKey stores k, assigning ID and CreatedAt where empty. A second
	// key with the same ID or Hash is ECONFLICT.
	CreateKey(ctx context.Context, k *APIKey) error
	// KeyByHash returns the key whose Hash is hash, revoked or expired
	// included (the caller decides), or ENOTFOUND.
	KeyByHash(ctx context.Context, hash string) (*APIKey, error)
	// ListKeys returns the tenant's keys, or every key when tenantID is "",
	// oldest first.
	ListKeys(ctx context.Context, tenantID string) ([]*APIKey, error)
	// RevokeKey marks the key revoked at at (a revoked key stays revoked,
	// with its first revocation time) and returns it. tenantID "" matches
	// any tenant; a key of another tenant is ENOTFOUND.
	RevokeKey(ctx context.Context, tenantID, id string, at time.Time) (*APIKey, error)
	// HasKeys reports whether any key, revoked or not, was ever created.
	HasKeys(ctx context.Context) (bool, error)
}

// NewKeyToken returns a fresh API key: KeyPrefix and 32 random bytes in
// unpadded base64url.
func NewKeyToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", Errorf(EINTERNAL, "no randomness for a key: %v", err)
	}
	return KeyPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// KeyHash returns the hex HMAC-SHA256 of token under secret: the only form
// of a key a store holds.
func KeyHash(secret []byte, token string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(token))
	return hex.EncodeToString(m.Sum(nil))
}

// LooksLikeKey reports whether token has the shape NewKeyToken gives.
func LooksLikeKey(token string) bool {
	rest, ok := strings.CutPrefix(token, KeyPrefix)
	if !ok || len(rest) != base64.RawURLEncoding.EncodedLen(32) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(rest)
	return err == nil
}
