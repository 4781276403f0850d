MATCH (k:APIKey)
RETURN count(k) > 0 AS has
LIMIT 1
