package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.RetentionStore = (*Store)(nil)

// live adds the condition that keeps expired rows of table (episodes or
// facts) out of a read: no expirations row at or before now.
func (w *where) live(table string, now time.Time) {
	w.add(`NOT EXISTS (SELECT 1 FROM expirations x WHERE x.id = `+table+`.id AND x.expires_at <= ?)`, micros(now))
}

// setExpiry records when the memory id expires, or removes its expiry when
// at is nil.
func setExpiry(ctx context.Context, tx *sql.Tx, id string, kind lore.DocKind, sc lore.Scope, at *time.Time) error {
	if at == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM expirations WHERE id = ?`, id)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO expirations (id, kind, tenant_id, user_id, agent_id, run_id, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at`,
		id, string(kind), sc.TenantID, sc.UserID, sc.AgentID, sc.RunID, micros(normTime(*at)))
	return err
}

// mergeExpiry applies a restatement's expiry to a stored fact: none makes
// the fact permanent, a later one extends it, and a fact that never expired
// stays so.
func mergeExpiry(ctx context.Context, tx *sql.Tx, id string, at *time.Time) error {
	if at == nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM expirations WHERE id = ?`, id)
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE expirations SET expires_at = max(expires_at, ?) WHERE id = ?`, micros(normTime(*at)), id)
	return err
}

// SweepExpired deletes up to limit expired episodes and facts with their
// history, in one transaction, then checkpoints the WAL so their text
// leaves the file (secure_delete zeroes the freed cells).
func (s *Store) SweepExpired(ctx context.Context, now time.Time, limit int) (lore.Swept, error) {
	var out lore.Swept
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, kind, tenant_id, user_id, agent_id, run_id FROM expirations
			WHERE expires_at <= ? ORDER BY expires_at LIMIT ?`, micros(now), max(limit, 1))
		if err != nil {
			return err
		}
		type due struct {
			id, kind string
			sc       lore.Scope
		}
		var all []due
		for rows.Next() {
			var d due
			if err := rows.Scan(&d.id, &d.kind, &d.sc.TenantID, &d.sc.UserID, &d.sc.AgentID, &d.sc.RunID); err != nil {
				rows.Close()
				return err
			}
			all = append(all, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, d := range all {
			var w where
			w.add("id = ?", d.id)
			switch lore.DocKind(d.kind) {
			case lore.KindEpisode:
				eps, err := queryEpisodes(ctx, tx, `SELECT `+episodeRead+` FROM episodes WHERE `+w.sql(), w.args...)
				if err != nil {
					return err
				}
				out.Episodes = append(out.Episodes, eps...)
				for _, ep := range eps {
					if err := s.outbox(ctx, tx, episodeEntry(ep, ep.Content)); err != nil {
						return err
					}
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM episodes WHERE id = ?`, d.id); err != nil {
					return err
				}
			case lore.KindFact:
				facts, err := queryFacts(ctx, tx, `SELECT `+factRead+` FROM facts WHERE `+w.sql(), w.args...)
				if err != nil {
					return err
				}
				out.Facts = append(out.Facts, facts...)
				for _, f := range facts {
					if err := s.outbox(ctx, tx, lore.OutboxEntry{Scope: f.Scope, Kind: lore.KindFact, MemoryID: f.ID}); err != nil {
						return err
					}
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM facts WHERE id = ?`, d.id); err != nil {
					return err
				}
			}
			if err := deleteMemorySignals(ctx, tx, d.sc.TenantID, d.id); err != nil {
				return err
			}
			// The history holds the memory's text too; it goes with it.
			for _, q := range []string{`DELETE FROM history WHERE memory_id = ?`, `DELETE FROM expirations WHERE id = ?`} {
				if _, err := tx.ExecContext(ctx, q, d.id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return lore.Swept{}, wrap("sweep expired", err)
	}
	if len(out.Episodes)+len(out.Facts) > 0 {
		return out, s.scrub(ctx)
	}
	return out, nil
}

// DropRawText clears the content of up to limit of the tenant's
// non-verbatim episodes stored before before, and the text of their history
// events, then checkpoints the WAL so the text leaves the file.
func (s *Store) DropRawText(ctx context.Context, tenantID string, before time.Time, limit int) (lore.Swept, error) {
	var out lore.Swept
	err := s.write(ctx, func(tx *sql.Tx) error {
		eps, err := queryEpisodes(ctx, tx, `SELECT `+episodeRead+` FROM episodes
			WHERE tenant_id = ? AND created_at < ? AND verbatim = 0 AND content <> '' ORDER BY created_at LIMIT ?`,
			tenantID, micros(before), max(limit, 1))
		if err != nil {
			return err
		}
		for _, ep := range eps {
			if _, err := tx.ExecContext(ctx, `UPDATE episodes SET content = '' WHERE id = ?`, ep.ID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE history SET before = '', after = '' WHERE memory_id = ?`, ep.ID); err != nil {
				return err
			}
			if err := s.outbox(ctx, tx, episodeEntry(ep, ep.Content)); err != nil {
				return err
			}
		}
		out.Episodes = eps
		return nil
	})
	if err != nil {
		return lore.Swept{}, wrap("drop raw text", err)
	}
	if len(out.Episodes) > 0 {
		return out, s.scrub(ctx)
	}
	return out, nil
}
