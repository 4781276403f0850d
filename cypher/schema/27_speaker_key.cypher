// One Speaker node per speaker name and episode scope (tenant, user, agent,
// run): Speakers reads these few nodes instead of every episode, and
// concurrent AddEpisodes MERGE the same node instead of creating twins.
CREATE CONSTRAINT speaker_key IF NOT EXISTS
FOR (s:Speaker) REQUIRE (s.tenant_id, s.user_id, s.agent_id, s.run_id, s.name) IS UNIQUE
