// The usage counts a scope contains (export).
MATCH (m:MemorySignal)
WHERE {{ns "m" .}} AND (m.returned > 0 OR m.cited > 0)
RETURN m
ORDER BY m.memory_id
