CREATE RANGE INDEX job_agent IF NOT EXISTS FOR (j:Job) ON (j.tenant_id, j.agent_id)
