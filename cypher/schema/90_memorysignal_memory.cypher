// A deleted memory's signal nodes and, through them, its success rows
// (DeleteMemorySignals, DeleteMemorySuccess).
CREATE RANGE INDEX memorysignal_memory IF NOT EXISTS FOR (m:MemorySignal) ON (m.tenant_id, m.memory_id)
