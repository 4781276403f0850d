CYPHER replan=skip
// Records pending index changes (lore.Outbox) in the transaction of the
// store change they follow. Ids, scopes and document ids only, never text.
UNWIND $entries AS row
CREATE (o:OutboxEntry)
SET o = row
