CYPHER replan=skip
MATCH (k:APIKey {hash: $hash}) USING INDEX k:APIKey(hash)
RETURN k
