package lore

import (
	"strings"
	"unicode"
)

// DefaultTenant is the tenant used when a request names none.
const DefaultTenant = "default"

// MaxIDLength bounds every caller-supplied identifier.
const MaxIDLength = 256

// Scope says whose memory a record is, as in mem0: a tenant, and within it a
// user, an agent and a run. Every stored record carries its full scope.
//
// A Scope used for reading selects every record whose tenant is equal and
// whose user, agent and run equal the reading scope's wherever the reading
// scope sets them, with one rule more: a read that names an agent and no
// user selects the agent's own records only, those stored with no user (see
// Contains). A read must set UserID or AgentID, so no request is ever
// answered across users, not even through an agent they share.
type Scope struct {
	TenantID string `json:"tenant_id"`
	UserID   string `json:"user_id,omitempty"`
	AgentID  string `json:"agent_id,omitempty"`
	RunID    string `json:"run_id,omitempty"`
}

// WithDefaults returns s with an empty tenant replaced by DefaultTenant.
func (s Scope) WithDefaults() Scope {
	if s.TenantID == "" {
		s.TenantID = DefaultTenant
	}
	return s
}

// Validate reports EINVALID unless s names a tenant and a user or an agent,
// and every identifier is printable and at most MaxIDLength bytes.
func (s Scope) Validate() error {
	for _, f := range []struct{ name, value string }{
		{"tenant_id", s.TenantID}, {"user_id", s.UserID}, {"agent_id", s.AgentID}, {"run_id", s.RunID},
	} {
		if err := ValidateID(f.name, f.value); err != nil {
			return err
		}
	}
	if s.TenantID == "" {
		return Errorf(EINVALID, "tenant_id is required")
	}
	if s.UserID == "" && s.AgentID == "" {
		return Errorf(EINVALID, "user_id or agent_id is required")
	}
	return nil
}

// ValidateErase is Validate for an erase, which may also name a tenant
// alone (no user, agent or run): the whole tenant.
func (s Scope) ValidateErase() error {
	if s.UserID == "" && s.AgentID == "" && s.RunID == "" {
		if s.TenantID == "" {
			return Errorf(EINVALID, "tenant_id is required")
		}
		return ValidateID("tenant_id", s.TenantID)
	}
	return s.Validate()
}

// ValidateID reports EINVALID if an identifier is too long or holds control
// characters. An empty value is valid here; callers decide what is required.
func ValidateID(field, value string) error {
	if len(value) > MaxIDLength {
		return Errorf(EINVALID, "%s is longer than %d bytes", field, MaxIDLength)
	}
	if strings.TrimSpace(value) != value {
		return Errorf(EINVALID, "%s has leading or trailing spaces", field)
	}
	for _, r := range value {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return Errorf(EINVALID, "%s holds a control or invalid character", field)
		}
	}
	return nil
}

// Contains reports whether a record stored under rec is visible to a read
// under s: same tenant, equal on every field that s sets, and, when s names
// an agent but no user, stored with no user: an agent-only read never sees
// the memories of the users who talk to that agent.
func (s Scope) Contains(rec Scope) bool {
	return s.TenantID == rec.TenantID &&
		(s.UserID == rec.UserID || (s.UserID == "" && s.AgentID == "")) &&
		(s.AgentID == "" || s.AgentID == rec.AgentID) &&
		(s.RunID == "" || s.RunID == rec.RunID)
}

// Namespace is the part of a scope that owns a knowledge graph: entities live
// per tenant, user and agent, and outlive the runs that mention them.
func (s Scope) Namespace() Scope {
	s.RunID = ""
	return s
}
