package lore

// DefaultEntitySimilarity is the name-embedding cosine above which ingest
// takes an extracted entity for an existing one of the same type, for an
// embedder that declares no bar of its own. It was set for MiniLM.
const DefaultEntitySimilarity = 0.9

// EntitySimilarityEmbedder is an Embedder that declares its own bar for
// entity-name matching: how close two names' vectors must be for ingest to
// take them for one entity. Models differ in how close unrelated short texts
// lie (e5's vectors crowd together; two different Chinese given names score
// above MiniLM's 0.9), so the model, not ingest, knows the bar.
type EntitySimilarityEmbedder interface {
	Embedder
	EntitySimilarity() float64
}

// EntitySimilarity returns e's declared bar when it declares one in (0, 1],
// else DefaultEntitySimilarity.
func EntitySimilarity(e Embedder) float64 {
	if d, ok := e.(EntitySimilarityEmbedder); ok {
		if s := d.EntitySimilarity(); s > 0 && s <= 1 {
			return s
		}
	}
	return DefaultEntitySimilarity
}
