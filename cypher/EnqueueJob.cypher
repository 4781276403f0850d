CREATE (j:Job)
SET j = $job
