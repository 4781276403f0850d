package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
	"github.com/weaviate/weaviate/entities/models"
)

// Search limits. MaxLimit is Weaviate's default QUERY_MAXIMUM_RESULTS; a
// larger limit would be refused by the server.
const (
	DefaultLimit = 10
	MaxLimit     = 10000
)

// SearchText ranks the documents q.Scope contains by BM25 over their text,
// analyzed into the embedded index's terms (see package terms). A
// query without a letter or digit finds nothing. With several kinds, each
// collection is ranked on its own statistics and the hits are merged by
// score.
func (x *Index) SearchText(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	classes, limit, err := checkQuery(q)
	if err != nil {
		return nil, err
	}
	text := terms.Joined(q.Text)
	if text == "" {
		return nil, nil
	}
	arg := "bm25:{query:" + gqlString(text) + ",properties:[" + gqlString(propTerms) + "]}"
	return x.search(ctx, q, classes, limit, arg, "score")
}

// SearchVector ranks the documents q.Scope contains by cosine similarity to
// q.Vector (1 - Weaviate's cosine distance). Documents indexed without a
// vector are never found, and an empty q.Vector finds nothing.
func (x *Index) SearchVector(ctx context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	classes, limit, err := checkQuery(q)
	if err != nil {
		return nil, err
	}
	if len(q.Vector) == 0 {
		// Without an embedder there is no query vector, and no dense hits.
		return nil, nil
	}
	vec, ok := gqlVector(q.Vector)
	if !ok {
		return nil, lore.Errorf(lore.EINVALID, "query vector holds NaN or infinity")
	}
	return x.search(ctx, q, classes, limit, "nearVector:{vector:"+vec+"}", "distance")
}

// checkQuery validates a query and returns the collections it searches and
// its effective limit.
func checkQuery(q lore.IndexQuery) ([]string, int, error) {
	if err := q.Scope.Validate(); err != nil {
		return nil, 0, err
	}
	classes, err := collectionsFor(q.Kinds)
	if err != nil {
		return nil, 0, err
	}
	limit := q.Limit
	switch {
	case limit <= 0:
		limit = DefaultLimit
	case limit > MaxLimit:
		limit = MaxLimit
	}
	return classes, limit, nil
}

// buildQuery renders one GraphQL Get over every class, so that a search of
// facts and episodes is a single round trip. search is the ranking argument
// (bm25 or nearVector) and metric the _additional field that scores it.
func buildQuery(q lore.IndexQuery, classes []string, limit int, search, metric string) string {
	var b strings.Builder
	b.WriteString("{Get{")
	where := gqlWhere(queryFilter(q))
	tenant := gqlString(tenantName(q.Scope.TenantID))
	for _, class := range classes {
		fmt.Fprintf(&b, "%s(tenant:%s,where:%s,%s,limit:%d){%s _additional{%s}}",
			class, tenant, where, search, limit, propID, metric)
	}
	b.WriteString("}}")
	return b.String()
}

// gqlHit is one object of a Get response.
type gqlHit struct {
	LoreID     string `json:"lore_id"`
	Additional struct {
		// Weaviate returns the BM25 score as a string and the distance
		// as a number.
		Score    json.RawMessage `json:"score"`
		Distance *float64        `json:"distance"`
	} `json:"_additional"`
}

func (x *Index) search(ctx context.Context, q lore.IndexQuery, classes []string, limit int, search, metric string) ([]lore.IndexHit, error) {
	query := buildQuery(q, classes, limit, search, metric)
	resp, err := x.client.GraphQL().Raw().WithQuery(query).Do(ctx)
	if err != nil {
		return nil, fmt.Errorf("weaviate: search: %w", wrapErr(err))
	}
	// A collection in which the Weaviate tenant does not exist yet holds
	// nothing of that Lore tenant: its part of the answer is empty, and the
	// other collection's part still counts.
	if len(resp.Errors) > 0 && !tenantMissing(resp.Errors) {
		return nil, fmt.Errorf("weaviate: search: %s", graphQLErrors(resp.Errors))
	}
	return parseHits(resp, classes, limit, metric)
}

// parseHits turns a Get response into hits, best first, at most limit.
func parseHits(resp *models.GraphQLResponse, classes []string, limit int, metric string) ([]lore.IndexHit, error) {
	raw, err := json.Marshal(resp.Data["Get"])
	if err != nil {
		return nil, fmt.Errorf("weaviate: search: re-encode response: %w", err)
	}
	var byClass map[string][]gqlHit
	if err := json.Unmarshal(raw, &byClass); err != nil {
		return nil, fmt.Errorf("weaviate: search: decode response: %w", err)
	}
	var hits []lore.IndexHit
	for _, class := range classes {
		for _, h := range byClass[class] {
			score, err := hitScore(h, metric)
			if err != nil {
				return nil, fmt.Errorf("weaviate: search %s: %w", class, err)
			}
			hits = append(hits, lore.IndexHit{ID: h.LoreID, Kind: kindOf(class), Score: score})
		}
	}
	// Ties are broken by id so that results are deterministic across runs
	// and across the two collections.
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].ID < hits[j].ID
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

func hitScore(h gqlHit, metric string) (float64, error) {
	if metric == "distance" {
		if h.Additional.Distance == nil {
			return 0, fmt.Errorf("hit %q has no distance", h.LoreID)
		}
		return 1 - *h.Additional.Distance, nil
	}
	s := strings.Trim(string(h.Additional.Score), `"`)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("hit %q has score %q: %w", h.LoreID, s, err)
	}
	return v, nil
}

// tenantMissing reports whether the errors only say the Weaviate tenant
// does not exist yet, which for a search means there is nothing to find.
func tenantMissing(errs []*models.GraphQLError) bool {
	for _, e := range errs {
		if e == nil || !strings.Contains(e.Message, "tenant not found") {
			return false
		}
	}
	return true
}

func graphQLErrors(errs []*models.GraphQLError) string {
	msgs := make([]string, 0, len(errs))
	for _, e := range errs {
		if e != nil {
			msgs = append(msgs, e.Message)
		}
	}
	return strings.Join(msgs, "; ")
}
