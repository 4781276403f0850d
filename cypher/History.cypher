MATCH (h:History {memory_id: $memory_id})
WHERE {{scope "h" .}}
RETURN h
ORDER BY h.at, h.id
