// Package lore holds Lore's domain — scopes, episodes, entities, facts,
// history, jobs — and the ports that backends implement: GraphStore,
// JobQueue, MetaStore, Index, Embedder and Extractor.
//
// It imports only the standard library. Adapters live in their own packages
// (graph/sqlite, graph/neo4j, index/weaviate, embed/..., extract/...), the
// pipelines over the ports in ingest/ and retrieve/, HTTP in api/, and the
// binary in cmd/lore.
package lore
