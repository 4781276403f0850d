// Takes the audit log's write lock for the rest of the transaction (the SET
// locks the head node) and returns the last record's seq, 0 for none.
CYPHER replan=skip
MERGE (h:AuditHead {id: 'log'})
ON CREATE SET h.seq = 0
SET h.appends = coalesce(h.appends, 0) + 1
RETURN h.seq AS seq
