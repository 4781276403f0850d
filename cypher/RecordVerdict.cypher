// RecordVerdict, second statement: the new adjustment (computed by the
// store from the rule), the verdict counts, a helpful verdict counted as a
// citation, and the durable Verdict event.
MATCH (m:MemorySignal {tenant_id: $tenant_id, user_id: $user_id, agent_id: $agent_id, memory_id: $memory_id})
SET m.adjustment = $adjustment, m.helpful = m.helpful + $help, m.unhelpful = m.unhelpful + $unhelp,
    m.cited = m.cited + $help,
    m.last_used = CASE WHEN $help > 0 AND (m.last_used IS NULL OR m.last_used < $now) THEN $now ELSE m.last_used END
CREATE (v:Verdict)
SET v = $verdict
