package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lore-memory/lore"
)

var _ lore.AuditStore = (*Store)(nil)

// auditColumns lists the columns scanAudit reads, in order.
const auditColumns = `seq, at, tenant_id, action, actor, subject, target, outcome, detail, prev_hash, hash, sig`

// AppendAudit appends rec after the log's last record, sealed by seal, in
// one write transaction: SQLite's single writer serializes appends.
func (s *Store) AppendAudit(ctx context.Context, rec *lore.AuditRecord, seal func(prev *lore.AuditRecord)) error {
	// An audit record is written whatever erase fenced the caller.
	ctx = lore.WithoutFence(ctx)
	err := s.write(ctx, func(tx *sql.Tx) error {
		prev, err := scanAudit(tx.QueryRowContext(ctx, `SELECT `+auditColumns+` FROM audit_log ORDER BY seq DESC LIMIT 1`))
		if errors.Is(err, sql.ErrNoRows) {
			prev, err = nil, nil
		}
		if err != nil {
			return fmt.Errorf("read the last record: %w", err)
		}
		seal(prev)
		detail, err := json.Marshal(rec.Detail)
		if err != nil {
			return err
		}
		if rec.Detail == nil {
			detail = []byte("{}")
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO audit_log (`+auditColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			rec.Seq, micros(rec.Time), rec.TenantID, rec.Action, rec.Actor, rec.Subject, rec.Target, rec.Outcome,
			string(detail), rec.PrevHash, rec.Hash, rec.Sig); err != nil {
			return err
		}
		if ref := rec.SubjectRef; ref != nil && rec.Subject != "" {
			_, err := tx.ExecContext(ctx, `INSERT INTO audit_pseudonyms (tenant_id, pseudonym, user_id, agent_id) VALUES (?, ?, ?, ?)
				ON CONFLICT DO NOTHING`, rec.TenantID, rec.Subject, ref.UserID, ref.AgentID)
			return err
		}
		return nil
	})
	return wrap("append audit", err)
}

// ListAudit returns the records filter selects, in seq order.
func (s *Store) ListAudit(ctx context.Context, f lore.AuditFilter) ([]*lore.AuditRecord, error) {
	var w where
	w.add("seq > ?", f.AfterSeq)
	if f.TenantID != "" {
		w.add("tenant_id = ?", f.TenantID)
	}
	if f.Action != "" {
		w.add("action = ?", f.Action)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+auditColumns+` FROM audit_log WHERE `+w.sql()+` ORDER BY seq`+limitOffset(f.Limit, 0), w.args...)
	if err != nil {
		return nil, wrap("list audit", err)
	}
	defer rows.Close()
	out := []*lore.AuditRecord{}
	for rows.Next() {
		r, err := scanAudit(rows)
		if err != nil {
			return nil, wrap("list audit", err)
		}
		out = append(out, r)
	}
	return out, wrap("list audit", rows.Err())
}

var _ lore.AuditSubjectWriter = (*Store)(nil)

// PutAuditSubject keeps whom a pseudonym stands for; a kept mapping stays.
func (s *Store) PutAuditSubject(ctx context.Context, tenantID, pseudonym string, sub lore.AuditSubject) error {
	if err := lore.ValidateAuditSubject(tenantID, pseudonym, sub); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO audit_pseudonyms (tenant_id, pseudonym, user_id, agent_id) VALUES (?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, tenantID, pseudonym, sub.UserID, sub.AgentID)
		return err
	})
	return wrap("put audit subject", err)
}

// AuditSubject returns whom a pseudonym stands for, or ENOTFOUND.
func (s *Store) AuditSubject(ctx context.Context, tenantID, pseudonym string) (*lore.AuditSubject, error) {
	var sub lore.AuditSubject
	err := s.r.QueryRowContext(ctx, `SELECT user_id, agent_id FROM audit_pseudonyms WHERE tenant_id = ? AND pseudonym = ?`,
		tenantID, pseudonym).Scan(&sub.UserID, &sub.AgentID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, lore.Errorf(lore.ENOTFOUND, "pseudonym %q stands for nobody on record", pseudonym)
	}
	if err != nil {
		return nil, wrap("audit subject", err)
	}
	return &sub, nil
}

// scanAudit reads one row of auditColumns.
func scanAudit(row interface{ Scan(...any) error }) (*lore.AuditRecord, error) {
	var r lore.AuditRecord
	var at int64
	var detail string
	if err := row.Scan(&r.Seq, &at, &r.TenantID, &r.Action, &r.Actor, &r.Subject, &r.Target, &r.Outcome, &detail,
		&r.PrevHash, &r.Hash, &r.Sig); err != nil {
		return nil, err
	}
	r.Time = fromMicros(at)
	if err := json.Unmarshal([]byte(detail), &r.Detail); err != nil {
		return nil, fmt.Errorf("audit record %d: detail: %w", r.Seq, err)
	}
	if len(r.Detail) == 0 {
		r.Detail = nil
	}
	return &r, nil
}
