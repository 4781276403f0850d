// Appends one sealed record and moves the head to it. The caller holds the
// head's lock (LockAuditHead) in the same transaction.
CYPHER replan=skip
MATCH (h:AuditHead {id: 'log'})
CREATE (a:AuditRecord)
SET a = $rec, h.seq = $rec.seq
