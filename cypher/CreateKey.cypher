// Only the key's keyed hash is stored; the uniqueness constraints on id
// and hash turn a duplicate into a constraint violation (ECONFLICT).
CYPHER replan=skip
CREATE (k:APIKey)
SET k = $key
