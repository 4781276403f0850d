// The audit log's one head node: every append locks it, so appends from any
// number of processes are serialized and the chain never forks.
CREATE CONSTRAINT audithead_id IF NOT EXISTS FOR (h:AuditHead) REQUIRE h.id IS UNIQUE
