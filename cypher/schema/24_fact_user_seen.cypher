// A user's latest facts in index order: FindFacts stops after LIMIT rows
// instead of sorting every fact of the user.
CREATE RANGE INDEX fact_user_seen IF NOT EXISTS FOR (f:Fact) ON (f.tenant_id, f.user_id, f.last_seen)
