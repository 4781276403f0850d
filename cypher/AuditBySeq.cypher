CYPHER replan=skip
MATCH (a:AuditRecord {seq: $seq})
RETURN a
