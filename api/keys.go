package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
)

// keyRequest is the body of POST /v1/keys.
type keyRequest struct {
	TenantID string `json:"tenant_id"`
	Role     string `json:"role"`
	UserID   string `json:"user_id"`
	AgentID  string `json:"agent_id"`
	Admin    bool   `json:"admin"`
	// ExpiresAt is an RFC 3339 time; ExpiresIn a Go duration ("720h").
	ExpiresAt string `json:"expires_at"`
	ExpiresIn string `json:"expires_in"`
}

// createdKey is the answer of POST /v1/keys: the key itself, shown this
// once, beside its record.
type createdKey struct {
	Key string `json:"key"`
	*lore.APIKey
}

// keyList is the answer of GET /v1/keys.
type keyList struct {
	Results []*lore.APIKey `json:"results"`
}

// keyAuth returns the server's key configuration, or EUNAVAILABLE.
func (s *Server) keyAuth() (*Auth, error) {
	if s.Auth == nil || s.Auth.Keys == nil {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "API keys are not configured on this server")
	}
	return s.Auth, nil
}

// keyTenant resolves the tenant a key route works in: the caller's key's
// (the middleware admitted only admin keys here), else the tenant the
// request names, else the default tenant. Only a server running without
// keys (loopback, none created yet) gets here without a key.
func (s *Server) keyTenant(c *gin.Context, named string) (string, error) {
	sc := lore.Scope{TenantID: named}
	if h := c.GetHeader(TenantHeader); h != "" {
		if named != "" && named != h {
			return "", lore.Errorf(lore.EINVALID, "tenant_id %q differs from the %s header %q", named, TenantHeader, h)
		}
		sc.TenantID = h
	}
	if key := KeyFrom(c.Request.Context()); key != nil {
		if sc.TenantID != "" && sc.TenantID != key.TenantID {
			return "", lore.Errorf(lore.EFORBIDDEN, "this API key is for another tenant than %q", sc.TenantID)
		}
		return key.TenantID, nil
	}
	sc = sc.WithDefaults()
	return sc.TenantID, lore.ValidateID("tenant_id", sc.TenantID)
}

// expiry reads expires_at or expires_in into a time after now.
func expiry(at, in string, now time.Time) (*time.Time, error) {
	switch {
	case at != "" && in != "":
		return nil, lore.Errorf(lore.EINVALID, "send expires_at or expires_in, not both")
	case at != "":
		t, err := lore.ParseTime("expires_at", at)
		if err != nil {
			return nil, err
		}
		if !t.After(now) {
			return nil, lore.Errorf(lore.EINVALID, "expires_at is in the past")
		}
		return t, nil
	case in != "":
		d, err := time.ParseDuration(in)
		if err != nil || d <= 0 {
			return nil, lore.Errorf(lore.EINVALID, "expires_in must be a positive duration such as 720h, got %q", in)
		}
		t := now.Add(d).UTC()
		return &t, nil
	}
	return nil, nil
}

// NewKey creates a key in ks from k's fields (tenant, role, pins, admin,
// expiry), hashing a fresh token under secret, and returns the token: the
// only time it exists outside the caller.
func NewKey(ctx context.Context, ks lore.KeyStore, secret []byte, k *lore.APIKey) (string, error) {
	token, err := lore.NewKeyToken()
	if err != nil {
		return "", err
	}
	k.Hash = lore.KeyHash(secret, token)
	if err := ks.CreateKey(ctx, k); err != nil {
		return "", err
	}
	return token, nil
}

func (s *Server) createKey(c *gin.Context) {
	auth, err := s.keyAuth()
	if err != nil {
		s.writeError(c, err)
		return
	}
	var req keyRequest
	if err := s.decodeBody(c, &req); err != nil {
		s.writeError(c, err)
		return
	}
	tenant, err := s.keyTenant(c, req.TenantID)
	if err != nil {
		s.writeError(c, err)
		return
	}
	now := auth.now()
	exp, err := expiry(strings.TrimSpace(req.ExpiresAt), strings.TrimSpace(req.ExpiresIn), now)
	if err != nil {
		s.writeError(c, err)
		return
	}
	k := &lore.APIKey{TenantID: tenant, Role: req.Role, UserID: req.UserID, AgentID: req.AgentID, Admin: req.Admin, CreatedAt: now.UTC(), ExpiresAt: exp}
	token, err := NewKey(c.Request.Context(), auth.Keys, auth.Secret, k)
	if err != nil {
		s.writeError(c, err)
		return
	}
	auth.keysSeen.Store(true)
	s.record(c, audit.Event{TenantID: k.TenantID, Action: lore.AuditKeyCreate, Target: k.ID, Scope: keyScope(k), Detail: keyDetail(k)})
	s.logger().WarnContext(c.Request.Context(), "API key created", "key_id", k.ID, "tenant", k.TenantID, "admin", k.Admin,
		"by", keyID(c), "request_id", c.GetString(requestIDKey))
	c.JSON(http.StatusCreated, createdKey{Key: token, APIKey: k})
}

func (s *Server) listKeys(c *gin.Context) {
	auth, err := s.keyAuth()
	if err != nil {
		s.writeError(c, err)
		return
	}
	tenant, err := s.keyTenant(c, c.Query("tenant_id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	keys, err := auth.Keys.ListKeys(c.Request.Context(), tenant)
	if err != nil {
		s.writeError(c, err)
		return
	}
	c.JSON(http.StatusOK, keyList{Results: keys})
}

func (s *Server) revokeKey(c *gin.Context) {
	auth, err := s.keyAuth()
	if err != nil {
		s.writeError(c, err)
		return
	}
	tenant, err := s.keyTenant(c, c.Query("tenant_id"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	id := c.Param("id")
	if err := lore.ValidateID("id", id); err != nil {
		s.writeError(c, err)
		return
	}
	k, err := auth.Keys.RevokeKey(c.Request.Context(), tenant, id, auth.now())
	if err != nil {
		s.writeError(c, err)
		return
	}
	s.record(c, audit.Event{TenantID: k.TenantID, Action: lore.AuditKeyRevoke, Target: k.ID})
	s.logger().WarnContext(c.Request.Context(), "API key revoked", "key_id", k.ID, "tenant", k.TenantID,
		"by", keyID(c), "request_id", c.GetString(requestIDKey))
	c.JSON(http.StatusOK, k)
}

// keyID names the caller's key in logs: its id, or "none".
func keyID(c *gin.Context) string {
	if k := KeyFrom(c.Request.Context()); k != nil {
		return k.ID
	}
	return "none"
}
