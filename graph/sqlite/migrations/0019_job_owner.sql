-- The instance id of the process that claimed a job, so that the same
-- process, restarted after a crash, releases its jobs at once instead of
-- waiting for their leases to lapse.
ALTER TABLE jobs ADD COLUMN owner TEXT NOT NULL DEFAULT '';
CREATE INDEX jobs_owner ON jobs (owner, status);
-- Backpressure counts a tenant's unfinished jobs on every queued add.
CREATE INDEX jobs_tenant_status ON jobs (tenant_id, status);
