package neo4j

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
)

var _ lore.AuditStore = (*Store)(nil)

// AppendAudit appends rec after the log's last record, sealed by seal, in
// one transaction that first locks the log's head node, so appends from
// every process are serialized. The transaction may be retried by the
// driver; seal is then called again with the same predecessor.
func (s *Store) AppendAudit(ctx context.Context, rec *lore.AuditRecord, seal func(prev *lore.AuditRecord)) error {
	// An audit record is written whatever erase fenced the caller.
	ctx = lore.WithoutFence(ctx)
	_, err := write(ctx, s, "append audit", func(r txRunner) (struct{}, error) {
		recs, err := r.run("LockAuditHead", shape{}, nil)
		if err != nil {
			return struct{}{}, err
		}
		seq, _ := recs[0].Get("seq")
		var prev *lore.AuditRecord
		if n, _ := seq.(int64); n > 0 {
			got, err := r.run("AuditBySeq", shape{}, map[string]any{"seq": n})
			if err != nil {
				return struct{}{}, err
			}
			if len(got) != 1 {
				return struct{}{}, fmt.Errorf("the audit head names record %d, which is missing", n)
			}
			if prev, err = toAudit(got[0]); err != nil {
				return struct{}{}, err
			}
		}
		seal(prev)
		detail, err := json.Marshal(rec.Detail)
		if err != nil {
			return struct{}{}, err
		}
		row := map[string]any{
			"seq": rec.Seq, "at": rec.Time.UTC(), "tenant_id": rec.TenantID, "action": rec.Action, "actor": rec.Actor,
			"subject": rec.Subject, "target": rec.Target, "outcome": rec.Outcome, "detail": string(detail),
			"prev_hash": rec.PrevHash, "hash": rec.Hash, "sig": rec.Sig,
		}
		if _, err := r.run("AppendAudit", shape{}, map[string]any{"rec": row}); err != nil {
			return struct{}{}, err
		}
		if ref := rec.SubjectRef; ref != nil && rec.Subject != "" {
			_, err := r.run("AddAuditPseudonym", shape{}, map[string]any{"tenant_id": rec.TenantID, "pseudonym": rec.Subject,
				"user_id": ref.UserID, "agent_id": ref.AgentID})
			return struct{}{}, err
		}
		return struct{}{}, nil
	})
	return err
}

// ListAudit returns the records f selects, in seq order.
func (s *Store) ListAudit(ctx context.Context, f lore.AuditFilter) ([]*lore.AuditRecord, error) {
	limit := int64(math.MaxInt64)
	if f.Limit > 0 {
		limit = int64(f.Limit)
	}
	return read(ctx, s, "list audit", func(r txRunner) ([]*lore.AuditRecord, error) {
		recs, err := r.run("ListAudit", shape{}, map[string]any{"after": f.AfterSeq, "tenant_id": f.TenantID, "action": f.Action, "limit": limit})
		if err != nil {
			return nil, err
		}
		out := make([]*lore.AuditRecord, 0, len(recs))
		for _, rec := range recs {
			a, err := toAudit(rec)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	})
}

var _ lore.AuditSubjectWriter = (*Store)(nil)

// PutAuditSubject keeps whom a pseudonym stands for; a kept mapping stays.
func (s *Store) PutAuditSubject(ctx context.Context, tenantID, pseudonym string, sub lore.AuditSubject) error {
	if err := lore.ValidateAuditSubject(tenantID, pseudonym, sub); err != nil {
		return err
	}
	_, err := write(ctx, s, "put audit subject", func(r txRunner) (struct{}, error) {
		_, err := r.run("AddAuditPseudonym", shape{}, map[string]any{"tenant_id": tenantID, "pseudonym": pseudonym,
			"user_id": sub.UserID, "agent_id": sub.AgentID})
		return struct{}{}, err
	})
	return err
}

// AuditSubject returns whom a pseudonym stands for, or ENOTFOUND.
func (s *Store) AuditSubject(ctx context.Context, tenantID, pseudonym string) (*lore.AuditSubject, error) {
	return read(ctx, s, "audit subject", func(r txRunner) (*lore.AuditSubject, error) {
		recs, err := r.run("AuditSubject", shape{}, map[string]any{"tenant_id": tenantID, "pseudonym": pseudonym})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return nil, lore.Errorf(lore.ENOTFOUND, "pseudonym %q stands for nobody on record", pseudonym)
		}
		u, _ := recs[0].Get("user_id")
		a, _ := recs[0].Get("agent_id")
		us, _ := u.(string)
		as, _ := a.(string)
		return &lore.AuditSubject{UserID: us, AgentID: as}, nil
	})
}

// toAudit reads an AuditRecord node returned as a.
func toAudit(rec *neo4j.Record) (*lore.AuditRecord, error) {
	p, err := nodeProps(rec, "a")
	if err != nil {
		return nil, err
	}
	a := &lore.AuditRecord{
		Seq: int64(p.int("seq")), Time: p.time("at"), TenantID: p.str("tenant_id"), Action: p.str("action"),
		Actor: p.str("actor"), Subject: p.str("subject"), Target: p.str("target"), Outcome: p.str("outcome"),
		PrevHash: p.str("prev_hash"), Hash: p.str("hash"), Sig: p.str("sig"),
	}
	if d := p.str("detail"); d != "" {
		if err := json.Unmarshal([]byte(d), &a.Detail); err != nil {
			return nil, fmt.Errorf("audit record %d: detail: %w", a.Seq, err)
		}
	}
	if len(a.Detail) == 0 {
		a.Detail = nil
	}
	return a, nil
}
