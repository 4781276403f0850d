-- Name lookups of a user's entities across agents (FindEntities by Names
-- with a scope that sets no agent): the unique index leads with agent_id
-- and cannot serve them.
CREATE INDEX entities_user_name ON entities (tenant_id, user_id, normalized_name);
CREATE INDEX entity_aliases_user ON entity_aliases (tenant_id, user_id, alias);
