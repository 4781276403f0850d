CREATE RANGE INDEX job_user IF NOT EXISTS FOR (j:Job) ON (j.tenant_id, j.user_id)
