CYPHER replan=skip
// Deletes outbox entries the index has taken.
UNWIND $seqs AS seq
MATCH (o:OutboxEntry {seq: seq})
DELETE o
