// Speakers for agent-only reads (no user id).
CREATE RANGE INDEX speaker_agent IF NOT EXISTS FOR (s:Speaker) ON (s.tenant_id, s.agent_id)
