// PendingJobs counts a tenant's unfinished jobs on every queued add.
CREATE RANGE INDEX job_tenant_status IF NOT EXISTS FOR (j:Job) ON (j.tenant_id, j.status)
