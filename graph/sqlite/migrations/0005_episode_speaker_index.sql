-- Every search with the speaker signal lists the scope's speakers; these
-- indexes answer it without reading the episodes themselves.
CREATE INDEX episodes_user_speaker ON episodes (tenant_id, user_id, speaker);
CREATE INDEX episodes_agent_speaker ON episodes (tenant_id, agent_id, speaker);
