CREATE RANGE INDEX fact_subject IF NOT EXISTS FOR (f:Fact) ON (f.subject_id)
