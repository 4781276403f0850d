// A user's signal nodes for export, reset and erase (reads by memory use
// memorysignal_key).
CREATE RANGE INDEX memorysignal_user IF NOT EXISTS FOR (m:MemorySignal) ON (m.tenant_id, m.user_id)
