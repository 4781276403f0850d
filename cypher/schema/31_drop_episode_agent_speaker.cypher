// As 30, for agent-only reads.
DROP INDEX episode_agent_speaker IF EXISTS
