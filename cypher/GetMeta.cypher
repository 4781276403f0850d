CYPHER replan=skip
MATCH (m:Meta {key: $key}) USING INDEX m:Meta(key)
RETURN m.value AS value
