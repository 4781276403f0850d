// Entity reads of agent-only scopes (no user id).
CREATE RANGE INDEX entity_agent IF NOT EXISTS FOR (e:Entity) ON (e.tenant_id, e.agent_id)
