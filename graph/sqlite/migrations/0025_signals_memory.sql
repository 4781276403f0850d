-- Ranking signals by memory (issue 14): deleting a memory removes its
-- verdicts, signal rows and success rows in every namespace that holds some,
-- and GET /v1/users/{id}/feedback lists a user's verdicts newest first.
CREATE INDEX IF NOT EXISTS verdicts_memory ON verdicts (tenant_id, memory_id);
CREATE INDEX IF NOT EXISTS memory_signals_memory ON memory_signals (tenant_id, memory_id);
CREATE INDEX IF NOT EXISTS success_memory ON success (tenant_id, memory_id);
