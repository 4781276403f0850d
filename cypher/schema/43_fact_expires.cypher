// The retention sweeper finds expired facts.
CREATE RANGE INDEX fact_expires IF NOT EXISTS FOR (f:Fact) ON (f.expires_at)
