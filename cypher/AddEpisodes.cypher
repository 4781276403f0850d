// Stores a batch of episodes and their ADD history events in one statement.
UNWIND $rows AS row
CREATE (e:Episode)
SET e = row.episode
CREATE (h:History)
SET h = row.history
