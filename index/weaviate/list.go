package weaviate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

var _ lore.IndexLister = (*Index)(nil)

// ListDocs implements lore.IndexLister with Weaviate's cursor (a Get with
// after:), facts first, then episodes. The cursor cannot be combined with a
// filter, so the page is of the whole Lore tenant and the scope is applied
// here: listing one user of a large tenant reads all of the tenant. The
// cursor is "<collection>:<object id>".
func (x *Index) ListDocs(ctx context.Context, scope lore.Scope, cursor string, limit int) ([]lore.IndexDoc, string, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, "", err
	}
	if limit <= 0 {
		return nil, "", lore.Errorf(lore.EINVALID, "limit must be positive, got %d", limit)
	}
	class, after := FactCollection, ""
	if cursor != "" {
		var ok bool
		class, after, ok = strings.Cut(cursor, ":")
		if !ok || (class != FactCollection && class != EpisodeCollection) {
			return nil, "", lore.Errorf(lore.EINVALID, "cursor %q is not a Weaviate listing cursor", cursor)
		}
	}
	var out []lore.IndexDoc
	for len(out) < limit {
		n := limit - len(out)
		page, last, err := x.listPage(ctx, class, scope.TenantID, after, n)
		if err != nil {
			return nil, "", err
		}
		for _, d := range page {
			if scope.Contains(d.Scope) {
				out = append(out, d)
			}
		}
		switch {
		case len(page) == n:
			after = last
		case class == FactCollection:
			class, after = EpisodeCollection, ""
		default:
			return out, "", nil
		}
	}
	return out, class + ":" + after, nil
}

// listObject is one object of a listing Get.
type listObject struct {
	LoreID     string `json:"lore_id"`
	TenantID   string `json:"tenant_id"`
	UserID     string `json:"user_id"`
	AgentID    string `json:"agent_id"`
	RunID      string `json:"run_id"`
	Text       string `json:"text"`
	Time       string `json:"time"`
	Additional struct {
		ID     string    `json:"id"`
		Vector []float32 `json:"vector"`
	} `json:"_additional"`
}

// listPage reads up to limit objects of class in the Lore tenant after the
// object id after, and returns them with the last object id.
func (x *Index) listPage(ctx context.Context, class, tenantID, after string, limit int) ([]lore.IndexDoc, string, error) {
	q := fmt.Sprintf("{Get{%s(tenant:%s,limit:%d,after:%s){%s %s %s %s %s %s %s _additional{id vector}}}}",
		class, gqlString(tenantName(tenantID)), limit, gqlString(after),
		propID, propTenant, propUser, propAgent, propRun, propText, propTime)
	resp, err := x.client.GraphQL().Raw().WithQuery(q).Do(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("weaviate: list: %w", wrapErr(err))
	}
	if len(resp.Errors) > 0 {
		if tenantMissing(resp.Errors) {
			return nil, "", nil
		}
		return nil, "", fmt.Errorf("weaviate: list: %s", graphQLErrors(resp.Errors))
	}
	raw, err := json.Marshal(resp.Data["Get"])
	if err != nil {
		return nil, "", fmt.Errorf("weaviate: list: re-encode response: %w", err)
	}
	var byClass map[string][]listObject
	if err := json.Unmarshal(raw, &byClass); err != nil {
		return nil, "", fmt.Errorf("weaviate: list: decode response: %w", err)
	}
	objs := byClass[class]
	docs := make([]lore.IndexDoc, 0, len(objs))
	for _, o := range objs {
		at, err := time.Parse(time.RFC3339Nano, o.Time)
		if err != nil {
			return nil, "", fmt.Errorf("weaviate: list: document %q has time %q: %w", o.LoreID, o.Time, err)
		}
		docs = append(docs, lore.IndexDoc{
			ID: o.LoreID, Kind: kindOf(class), Text: o.Text, Time: at.UTC(), Vector: o.Additional.Vector,
			Scope: lore.Scope{TenantID: o.TenantID, UserID: o.UserID, AgentID: o.AgentID, RunID: o.RunID},
		})
	}
	last := ""
	if len(objs) > 0 {
		last = objs[len(objs)-1].Additional.ID
	}
	return docs, last, nil
}
