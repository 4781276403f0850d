// ReleaseJobs finds the jobs a restarted process held.
CREATE RANGE INDEX job_owner IF NOT EXISTS FOR (j:Job) ON (j.owner)
