// Entity reads of a user's namespace (any agent) and alias lookups.
CREATE RANGE INDEX entity_user IF NOT EXISTS FOR (e:Entity) ON (e.tenant_id, e.user_id)
