package ingest

import (
	"context"

	"github.com/lore-memory/lore"
)

// FactScorer drops extracted facts that a learned model scores as not worth
// keeping. keys holds each episode's index key (lore.EpisodeKey without
// facts, the text the episode was indexed under when it was added, so its
// vector is usually in the embedding cache) by episode id; embed returns one
// vector per text through the Service's cache. It returns the facts to keep
// and the texts of those it dropped; an extraction it cannot judge (another
// extractor, another embedder) comes back whole. extract/rules.Scorer
// implements it.
type FactScorer interface {
	Filter(ctx context.Context, ext *lore.Extraction, keys map[string]string, info lore.EmbedderInfo, embed func(context.Context, []string) ([][]float32, error)) ([]lore.ExtractedFact, []string, error)
}

// scoreFacts runs the FactScorer, when there is one and an embedder, over
// ext's facts in place. prev holds the turn before each episode.
func (s *Service) scoreFacts(ctx context.Context, scope lore.Scope, ext *lore.Extraction, eps []*lore.Episode, prev map[string]*lore.Episode) error {
	if s.FactScorer == nil || s.Embedder == nil || len(ext.Facts) == 0 {
		return nil
	}
	keys := make(map[string]string, len(eps))
	for _, ep := range eps {
		keys[ep.ID] = lore.EpisodeKey(ep, prev[ep.ID], nil)
	}
	kept, dropped, err := s.FactScorer.Filter(ctx, ext, keys, s.Embedder.Info(), s.embed)
	if err != nil {
		return err
	}
	if len(dropped) > 0 {
		s.logger().Debug("ingest: fact scorer dropped statements", "tenant", scope.TenantID, "extractor", ext.Extractor, "dropped", len(dropped), "kept", len(kept))
	}
	ext.Facts = kept
	return nil
}
