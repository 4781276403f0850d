CYPHER replan=skip
// Finds, for fact $id, another current fact that already states the triple
// whose dedup key is $dedup_key (only current facts keep one), before
// UpdateFactTriple gives fact $id that key. No row: fact $id is not in the
// scope. A null id: no twin, or fact $id is closed and needs no key.
MATCH (me:Fact {id: $id}) USING INDEX me:Fact(id)
WHERE {{scope "me" .}}
OPTIONAL MATCH (f:Fact {dedup_key: $dedup_key})
WHERE f.id <> me.id AND me.invalid_at IS NULL AND me.expired_at IS NULL
RETURN f.id AS id, f.text AS text
LIMIT 1
