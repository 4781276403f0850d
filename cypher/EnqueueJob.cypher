CYPHER replan=skip
CREATE (j:Job)
SET j = $job
