// dedup_key is set only on current facts and identifies namespace, subject,
// predicate and object: MergeFact MERGEs on it, so concurrent merges of one
// statement take the same index lock and never create two current facts.
CREATE CONSTRAINT fact_dedup IF NOT EXISTS FOR (f:Fact) REQUIRE f.dedup_key IS UNIQUE
