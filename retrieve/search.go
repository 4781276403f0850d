package retrieve

import (
	"context"
	"fmt"
	"sort"

	"github.com/lore-memory/lore"
)

// search is the first version of the pipeline: BM25 candidates, hydrated and
// filtered. The staged pipeline replaces it.
func (p *Pipeline) search(ctx context.Context, req Request) (*Response, error) {
	req.Scope = req.Scope.WithDefaults()
	if err := req.Scope.Validate(); err != nil {
		return nil, err
	}
	if req.TopK <= 0 {
		req.TopK = DefaultTopK
	}
	hits, err := p.Index.SearchText(ctx, lore.IndexQuery{Scope: req.Scope, Text: req.Query, Kinds: req.Kinds, Since: req.Since, Until: req.Until, Limit: req.TopK * 3})
	if err != nil {
		return nil, fmt.Errorf("retrieve: text search: %w", err)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
	resp := &Response{Results: []Result{}, Entities: []*lore.Entity{}}
	for _, h := range hits {
		if len(resp.Results) == req.TopK {
			break
		}
		resp.Results = append(resp.Results, Result{ID: h.ID, Type: h.Kind, Score: h.Score})
	}
	return resp, nil
}
