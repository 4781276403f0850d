// ResetFeedback: the scope's relevance adjustments and verdict counts go
// back to zero; signal nodes holding no usage go altogether.
MATCH (n:MemorySignal)
WHERE {{ns "n" .}}
SET n.adjustment = 0.0, n.helpful = 0, n.unhelpful = 0
WITH n
WHERE n.returned = 0 AND n.cited = 0
DELETE n
