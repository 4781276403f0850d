CREATE RANGE INDEX episode_agent IF NOT EXISTS FOR (e:Episode) ON (e.tenant_id, e.agent_id)
