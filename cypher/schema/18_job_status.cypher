// ClaimJob looks for due work by status.
CREATE RANGE INDEX job_status IF NOT EXISTS FOR (j:Job) ON (j.status)
