CREATE RANGE INDEX history_agent IF NOT EXISTS FOR (h:History) ON (h.tenant_id, h.agent_id)
