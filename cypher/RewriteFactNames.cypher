// Stores a fact's rewritten subject and object, with the keys that follow
// the object (RewriteNames). A closed fact keeps no dedup key.
MATCH (f:Fact {id: $id}) USING INDEX f:Fact(id)
SET f.subject = $subject, f.object = $object, f.object_key = $object_key,
    f.dedup_key = CASE WHEN f.dedup_key IS NULL THEN null ELSE $dedup_key END
