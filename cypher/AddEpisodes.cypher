CYPHER replan=skip
// Stores a batch of episodes and their ADD history events in one statement.
UNWIND $rows AS row
CREATE (e:Episode)
SET e = row.episode, e.history_seq = 1
CREATE (h:History)
SET h = row.history, h.seq = 1
