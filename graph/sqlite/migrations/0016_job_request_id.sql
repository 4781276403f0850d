-- The request that enqueued a job, so that the job's logs carry the same
-- request id as the HTTP request's (issue 15). A table beside jobs, not a
-- column, so that the migration can run again (CREATE … IF NOT EXISTS);
-- a job's row goes with it. Jobs from before have none.
CREATE TABLE IF NOT EXISTS job_requests (
	job_id     TEXT PRIMARY KEY,
	request_id TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS job_requests_ad AFTER DELETE ON jobs BEGIN
	DELETE FROM job_requests WHERE job_id = old.id;
END;
