package sqlite

import (
	"context"
	"database/sql"

	"github.com/lore-memory/lore"
)

var _ lore.NameRewriter = (*Store)(nil)

// RewriteNames rewrites the names the scope's graph stores, in one
// transaction: entities' names (and normalized names) and aliases, facts'
// subjects and objects (and literal keys), and episodes' speakers.
func (s *Store) RewriteNames(ctx context.Context, scope lore.Scope, fn func(lore.NameKind, string) (string, error)) (int, error) {
	if err := scope.Validate(); err != nil {
		return 0, err
	}
	n := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		var w where
		w.namespace("", scope)
		// Rows are read whole before any is written: a statement cannot
		// run on the transaction while another's rows are open.
		type entity struct{ id, tenant, user, agent, name string }
		var ents []entity
		if err := collect(ctx, tx, `SELECT id, tenant_id, user_id, agent_id, name FROM entities WHERE `+w.sql(), w.args, func(r *sql.Rows) error {
			var e entity
			err := r.Scan(&e.id, &e.tenant, &e.user, &e.agent, &e.name)
			ents = append(ents, e)
			return err
		}); err != nil {
			return err
		}
		for _, e := range ents {
			name, err := fn(lore.NameEntity, e.name)
			if err != nil {
				return err
			}
			if name == e.name {
				continue
			}
			norm := lore.NormalizeName(name)
			var twin string
			err = tx.QueryRowContext(ctx, `SELECT id FROM entities WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND normalized_name = ? AND id <> ?`,
				e.tenant, e.user, e.agent, norm, e.id).Scan(&twin)
			if err == nil {
				return lore.Errorf(lore.ECONFLICT, "entity %s would take the name of entity %s", e.id, twin)
			} else if err != sql.ErrNoRows {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE entities SET name = ?, normalized_name = ? WHERE id = ?`, name, norm, e.id); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM entity_aliases WHERE entity_id = ? AND alias = ?`, e.id, norm); err != nil {
				return err
			}
			n++
		}
		type alias struct{ tenant, user, agent, alias, entity string }
		var aliases []alias
		if err := collect(ctx, tx, `SELECT tenant_id, user_id, agent_id, alias, entity_id FROM entity_aliases WHERE `+w.sql(), w.args, func(r *sql.Rows) error {
			var a alias
			err := r.Scan(&a.tenant, &a.user, &a.agent, &a.alias, &a.entity)
			aliases = append(aliases, a)
			return err
		}); err != nil {
			return err
		}
		for _, a := range aliases {
			v, err := fn(lore.NameAlias, a.alias)
			if err != nil {
				return err
			}
			if v == a.alias {
				continue
			}
			// The new alias replaces the old; one another entity (or its
			// own name) already holds is dropped, as MergeEntity would.
			if _, err := tx.ExecContext(ctx, `DELETE FROM entity_aliases WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND alias = ?`,
				a.tenant, a.user, a.agent, a.alias); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO entity_aliases (tenant_id, user_id, agent_id, alias, entity_id)
				SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM entities
					WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND normalized_name = ?)
				ON CONFLICT DO NOTHING`,
				a.tenant, a.user, a.agent, v, a.entity, a.tenant, a.user, a.agent, v); err != nil {
				return err
			}
			n++
		}
		type fact struct{ id, subject, objectID, object string }
		var facts []fact
		if err := collect(ctx, tx, `SELECT id, subject, object_id, object FROM facts WHERE `+w.sql(), w.args, func(r *sql.Rows) error {
			var f fact
			err := r.Scan(&f.id, &f.subject, &f.objectID, &f.object)
			facts = append(facts, f)
			return err
		}); err != nil {
			return err
		}
		for _, f := range facts {
			subject, err := fn(lore.NameSubject, f.subject)
			if err != nil {
				return err
			}
			kind := lore.NameLiteral
			if f.objectID != "" {
				kind = lore.NameObject
			}
			object, err := fn(kind, f.object)
			if err != nil {
				return err
			}
			if subject == f.subject && object == f.object {
				continue
			}
			key := (&lore.Fact{ObjectID: f.objectID, Object: object}).ObjectKey()
			if _, err := tx.ExecContext(ctx, `UPDATE facts SET subject = ?, object = ?, object_key = ? WHERE id = ?`, subject, object, key, f.id); err != nil {
				return err
			}
			n++
		}
		var speakers []string
		if err := collect(ctx, tx, `SELECT DISTINCT speaker FROM episodes WHERE speaker <> '' AND `+w.sql(), w.args, func(r *sql.Rows) error {
			var sp string
			err := r.Scan(&sp)
			speakers = append(speakers, sp)
			return err
		}); err != nil {
			return err
		}
		for _, sp := range speakers {
			v, err := fn(lore.NameSpeaker, sp)
			if err != nil {
				return err
			}
			if v == sp {
				continue
			}
			res, err := tx.ExecContext(ctx, `UPDATE episodes SET speaker = ? WHERE speaker = ? AND `+w.sql(), append([]any{v, sp}, w.args...)...)
			if err != nil {
				return err
			}
			c, _ := res.RowsAffected()
			n += int(c)
		}
		return nil
	})
	return n, wrap("rewrite names", err)
}

// collect runs a query within tx and hands each row to scan.
func collect(ctx context.Context, tx *sql.Tx, q string, args []any, scan func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
