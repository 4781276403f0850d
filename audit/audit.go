// Package audit writes and verifies Lore's audit log: who erased, exported,
// imported, created or revoked keys, who was refused, what the retention
// sweeper removed. Records are hash-chained and signed with the server's
// audit key (lore.AuditRecord) and name users and agents by keyed
// pseudonyms; they never hold memory content. The store keeps them through
// lore.AuditStore, in every backend.
package audit

import (
	"context"
	"log/slog"
	"time"

	"github.com/lore-memory/lore"
)

// Log appends records to an audit store. A nil *Log records nothing, so a
// server or command without an audit store runs unchanged.
type Log struct {
	Store lore.AuditStore
	// Key signs records (HMAC-SHA256) and keys pseudonyms; at least 32
	// bytes. Verifying needs the same key.
	Key    []byte
	Now    func() time.Time // nil: time.Now
	Logger *slog.Logger     // nil: slog.Default()
}

// Event is what happened, before it becomes a record.
type Event struct {
	TenantID string
	Action   string // one of lore.Audit*
	Actor    string // an API key id, "cli", "system", "anonymous"
	// Scope, when it names a user or an agent, is whom the event is about:
	// the record holds its pseudonym only (the user's, or the agent's for an
	// agent-only scope).
	Scope   *lore.Scope
	Target  string
	Outcome string // lore.AuditOK when empty
	Detail  map[string]string
	// Forget keeps no pseudonym mapping: set for an erase, which has just
	// removed the mapping along with the user.
	Forget bool
}

func (l *Log) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Log) logger() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

// Pseudonym returns the pseudonym of the user a scope names, or of its
// agent for an agent-only scope, with whom it stands for; "" and nil when
// the scope names neither.
func (l *Log) Pseudonym(sc lore.Scope) (string, *lore.AuditSubject) {
	switch {
	case sc.UserID != "":
		return lore.AuditPseudonym(l.Key, sc.TenantID, "user", sc.UserID), &lore.AuditSubject{UserID: sc.UserID}
	case sc.AgentID != "":
		return lore.AuditPseudonym(l.Key, sc.TenantID, "agent", sc.AgentID), &lore.AuditSubject{AgentID: sc.AgentID}
	}
	return "", nil
}

// Record appends ev to the log and returns the record. A failure is
// returned and logged: the action it records has already happened.
func (l *Log) Record(ctx context.Context, ev Event) (*lore.AuditRecord, error) {
	if l == nil || l.Store == nil {
		return nil, nil
	}
	rec := &lore.AuditRecord{Time: l.now(), TenantID: ev.TenantID, Action: ev.Action, Actor: ev.Actor,
		Target: ev.Target, Outcome: ev.Outcome, Detail: ev.Detail}
	if rec.Outcome == "" {
		rec.Outcome = lore.AuditOK
	}
	if ev.Scope != nil {
		rec.Subject, rec.SubjectRef = l.Pseudonym(*ev.Scope)
		if ev.Forget {
			rec.SubjectRef = nil
		}
	}
	err := l.Store.AppendAudit(context.WithoutCancel(ctx), rec, func(prev *lore.AuditRecord) { lore.SealAudit(l.Key, prev, rec) })
	if err != nil {
		l.logger().ErrorContext(ctx, "audit: record not written", slog.String("action", ev.Action),
			slog.String("tenant", ev.TenantID), slog.String("error", err.Error()))
		return nil, err
	}
	return rec, nil
}

// Report is the outcome of Verify.
type Report struct {
	Checked  int                 `json:"checked"`
	Head     *lore.AuditRecord   `json:"head,omitempty"`
	Problems []lore.AuditProblem `json:"problems"`
}

// OK reports whether every record verified.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// verifyPage is how many records Verify reads at once.
const verifyPage = 1000

// Verify reads the whole log in seq order and checks every record's hash,
// signature and link to the one before it (lore.AuditVerifier).
func (l *Log) Verify(ctx context.Context) (*Report, error) {
	v := &lore.AuditVerifier{Key: l.Key}
	var after int64
	for {
		recs, err := l.Store.ListAudit(ctx, lore.AuditFilter{AfterSeq: after, Limit: verifyPage})
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			v.Add(r)
			after = r.Seq
		}
		if len(recs) < verifyPage {
			break
		}
	}
	problems := v.Problems
	if problems == nil {
		problems = []lore.AuditProblem{}
	}
	return &Report{Checked: v.Checked, Head: v.Head(), Problems: problems}, nil
}
