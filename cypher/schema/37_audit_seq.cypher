// One audit record per sequence number: two appends can never both take a seq.
CREATE CONSTRAINT audit_seq IF NOT EXISTS FOR (a:AuditRecord) REQUIRE a.seq IS UNIQUE
