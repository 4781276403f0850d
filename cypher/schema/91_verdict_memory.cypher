// A deleted memory's verdicts (DeleteMemoryVerdicts).
CREATE RANGE INDEX verdict_memory IF NOT EXISTS FOR (v:Verdict) ON (v.tenant_id, v.memory_id)
