CYPHER replan=skip
MATCH (h:History {memory_id: $memory_id}) USING INDEX h:History(memory_id)
WHERE {{scope "h" .}}
RETURN h
// seq numbers a memory's events in commit order; at and id break the
// ties of a memory deleted and stored again under the same id.
ORDER BY h.seq, h.at, h.id
