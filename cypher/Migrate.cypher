// Waits until the indexes created by the schema files are online, so the
// first queries after a migration already run on them.
CALL db.awaitIndexes($timeout_seconds)
