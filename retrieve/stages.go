package retrieve

import "time"

// Stage names of the search pipeline, as Pipeline.Observe reports them.
const (
	StageAnalyse    = "analyse"    // terms, entities, roles and dates of the query
	StageCandidates = "candidates" // BM25, dense, graph walk, relation hops (the query embedding included)
	StageHydrate    = "hydrate"    // the candidates' records from the store
	StageFuse       = "fuse"       // temporal scores, fusion, neighbouring turns, speaker focus, boosts
	StageRank       = "rank"       // as-of filter, current values first, diversify
	StageSources    = "sources"    // the results' source turns
	StageContext    = "context"    // explanations and the prompt-ready context
)

// stageTimer returns a function that reports the time since its previous
// call (or since stageTimer) under a stage name to Observe; it does nothing
// when Observe is nil.
func (p *Pipeline) stageTimer() func(stage string) {
	if p.Observe == nil {
		return func(string) {}
	}
	last := time.Now()
	return func(stage string) {
		now := time.Now()
		p.Observe(stage, now.Sub(last))
		last = now
	}
}
