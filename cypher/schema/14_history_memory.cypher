CREATE RANGE INDEX history_memory IF NOT EXISTS FOR (h:History) ON (h.memory_id)
