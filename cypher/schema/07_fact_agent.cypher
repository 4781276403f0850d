CREATE RANGE INDEX fact_agent IF NOT EXISTS FOR (f:Fact) ON (f.tenant_id, f.agent_id)
