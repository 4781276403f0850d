// Sets a setting only if it is not set yet and returns what it holds; the
// meta_key constraint makes concurrent creations agree on one value.
CYPHER replan=skip
MERGE (m:Meta {key: $key})
ON CREATE SET m.value = $value
RETURN m.value AS value
