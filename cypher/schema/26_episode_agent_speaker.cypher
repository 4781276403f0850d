// Speakers for agent-only reads, as 25 for users.
CREATE RANGE INDEX episode_agent_speaker IF NOT EXISTS FOR (e:Episode) ON (e.tenant_id, e.agent_id, e.speaker)
