package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"slices"

	"github.com/lore-memory/lore"
)

// entityColumns lists the columns scanEntities reads, in order.
const entityColumns = `id, tenant_id, user_id, agent_id, name, normalized_name, type, mentions, first_seen, last_seen`

// MergeEntity upserts an entity of e.Scope's namespace by normalized name
// or alias. Merges are serialized by the single writer connection and the
// lookup and the insert share one transaction, so concurrent merges of one
// name cannot create two entities (the unique index would refuse it too).
func (s *Store) MergeEntity(ctx context.Context, e *lore.Entity) (*lore.Entity, error) {
	if err := e.Scope.Validate(); err != nil {
		return nil, err
	}
	norm := lore.NormalizeName(e.Name)
	if norm == "" {
		return nil, lore.Errorf(lore.EINVALID, "entity name %q is empty once normalized", e.Name)
	}
	ns := e.Scope.Namespace()
	var aliases []string
	for _, a := range e.Aliases {
		if a = lore.NormalizeName(a); a != "" && a != norm && !slices.Contains(aliases, a) {
			aliases = append(aliases, a)
		}
	}
	now := s.clock()
	first, last := seenRange(e.FirstSeen, e.LastSeen, now)
	mentions := max(e.Mentions, 1)

	var out *lore.Entity
	err := s.write(ctx, func(tx *sql.Tx) error {
		id, err := resolveEntity(ctx, tx, ns, append([]string{norm}, aliases...))
		if err != nil {
			return err
		}
		if id == "" {
			id = newID()
			_, err = tx.ExecContext(ctx, `INSERT INTO entities (`+entityColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, ns.TenantID, ns.UserID, ns.AgentID, e.Name, norm, e.Type, mentions, micros(first), micros(last))
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE entities SET mentions = mentions + ?,
				first_seen = min(first_seen, ?), last_seen = max(last_seen, ?),
				type = CASE WHEN type = '' THEN ? ELSE type END
				WHERE id = ?`, mentions, micros(first), micros(last), e.Type, id)
		}
		if err != nil {
			return err
		}
		for _, a := range aliases {
			// An alias already taken by another entity of the namespace
			// stays with it: the first claim wins, lookups stay unambiguous.
			if _, err := tx.ExecContext(ctx, `INSERT INTO entity_aliases (tenant_id, user_id, agent_id, alias, entity_id)
				SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM entities
					WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND normalized_name = ? AND id <> ?)
				ON CONFLICT DO NOTHING`,
				ns.TenantID, ns.UserID, ns.AgentID, a, id, ns.TenantID, ns.UserID, ns.AgentID, a, id); err != nil {
				return err
			}
		}
		ents, err := queryEntities(ctx, tx, `SELECT `+entityColumns+` FROM entities WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if len(ents) != 1 {
			return errors.New("merged entity vanished")
		}
		out = ents[0]
		return nil
	})
	return out, wrap("merge entity", err)
}

// resolveSQL finds an entity of a namespace by normalized name, else by
// alias; the arguments are (tenant, user, agent, name) twice.
const resolveSQL = `SELECT id FROM entities
	WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND normalized_name = ?
	UNION ALL
	SELECT entity_id FROM entity_aliases
	WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND alias = ?
	LIMIT 1`

// resolveEntity returns the id of the namespace's entity known by the first
// of names (a normalized name or alias) that matches one, or "".
func resolveEntity(ctx context.Context, tx *sql.Tx, ns lore.Scope, names []string) (string, error) {
	for _, name := range names {
		var id string
		err := tx.QueryRowContext(ctx, resolveSQL, ns.TenantID, ns.UserID, ns.AgentID, name, ns.TenantID, ns.UserID, ns.AgentID, name).Scan(&id)
		switch {
		case err == nil:
			return id, nil
		case !errors.Is(err, sql.ErrNoRows):
			return "", err
		}
	}
	return "", nil
}

// FindEntities returns the entities of the scope's namespaces the filter
// selects, by Mentions descending, then Name.
func (s *Store) FindEntities(ctx context.Context, f lore.EntityFilter) ([]*lore.Entity, error) {
	if err := f.Scope.Validate(); err != nil {
		return nil, err
	}
	q, args := entityQuery(f)
	ents, err := queryEntities(ctx, s.reads, q, args...)
	return ents, wrap("find entities", err)
}

// entityQuery returns FindEntities' statement and arguments.
func entityQuery(f lore.EntityFilter) (string, []any) {
	var w where
	if f.IDs != nil {
		w.namespaceFilter("", f.Scope)
		w.in("id", f.IDs)
	} else {
		w.namespace("", f.Scope)
	}
	if f.Names != nil {
		names := make([]string, 0, len(f.Names))
		for _, n := range f.Names {
			names = append(names, lore.NormalizeName(n))
		}
		var aw where
		aw.namespace("", f.Scope)
		aw.in("alias", names)
		w.add("(normalized_name IN ("+placeholders(len(names))+") OR id IN (SELECT entity_id FROM entity_aliases WHERE "+aw.sql()+"))",
			append(anys(names), aw.args...)...)
	}
	return `SELECT ` + entityColumns + ` FROM entities WHERE ` + w.sql() + ` ORDER BY mentions DESC, name, id` + limitOffset(f.Limit, f.Offset), w.args
}

// queryEntities runs a query selecting entityColumns and loads the aliases
// of what it found.
func queryEntities(ctx context.Context, q querier, query string, args ...any) ([]*lore.Entity, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	out := []*lore.Entity{}
	byID := map[string]*lore.Entity{}
	for rows.Next() {
		var (
			e           lore.Entity
			first, last int64
		)
		if err := rows.Scan(&e.ID, &e.Scope.TenantID, &e.Scope.UserID, &e.Scope.AgentID, &e.Name, &e.NormalizedName,
			&e.Type, &e.Mentions, &first, &last); err != nil {
			rows.Close()
			return nil, err
		}
		e.FirstSeen, e.LastSeen = fromMicros(first), fromMicros(last)
		out = append(out, &e)
		byID[e.ID] = &e
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(out))
	for _, e := range out {
		ids = append(ids, e.ID)
	}
	for _, part := range chunks(ids, 500) {
		rows, err := q.QueryContext(ctx, `SELECT entity_id, alias FROM entity_aliases WHERE entity_id IN (`+
			placeholders(len(part))+`) ORDER BY alias`, anys(part)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, alias string
			if err := rows.Scan(&id, &alias); err != nil {
				rows.Close()
				return nil, err
			}
			byID[id].Aliases = append(byID[id].Aliases, alias)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
