CREATE RANGE INDEX fact_object IF NOT EXISTS FOR (f:Fact) ON (f.object_id)
