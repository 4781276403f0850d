MATCH (e:Episode)
WHERE {{scope "e" .}} AND e.speaker <> ''
RETURN DISTINCT e.speaker AS speaker
ORDER BY speaker
