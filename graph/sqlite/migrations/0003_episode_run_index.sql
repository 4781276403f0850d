-- Reads of one run (a session's memory) go straight to its episodes instead
-- of filtering all of the user's.
CREATE INDEX episodes_run ON episodes (tenant_id, user_id, run_id, occurred_at, created_at);
