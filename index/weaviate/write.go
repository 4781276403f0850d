package weaviate

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/go-openapi/strfmt"
	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
	"github.com/weaviate/weaviate/entities/models"
)

// Write batch sizes. A batch of 200 objects with 384-float vectors is about
// 1 MB of JSON, well below Weaviate's request limits, and large enough that
// the per-request cost is amortized.
const (
	upsertBatch = 200
	deleteBatch = 500
	// maxDeleteRounds bounds DeleteScope's loop: Weaviate deletes at most
	// QUERY_MAXIMUM_RESULTS objects per request.
	maxDeleteRounds = 100000
)

// Upsert adds or replaces documents by ID, and returns once they are
// searchable. Documents of several Lore tenants may be mixed; a tenant's
// first document creates its Weaviate tenant. When ids repeat within docs,
// the last one wins.
func (x *Index) Upsert(ctx context.Context, docs []lore.IndexDoc) error {
	objects := make([]*models.Object, 0, len(docs))
	seen := make(map[string]int, len(docs))
	for i := range docs {
		obj, err := toObject(&docs[i])
		if err != nil {
			return err
		}
		key := obj.Class + "\x00" + obj.Tenant + "\x00" + string(obj.ID)
		if j, ok := seen[key]; ok {
			objects[j] = obj
			continue
		}
		seen[key] = len(objects)
		objects = append(objects, obj)
	}
	if err := x.ensureTenants(ctx, objects); err != nil {
		return err
	}
	for start := 0; start < len(objects); start += upsertBatch {
		end := min(start+upsertBatch, len(objects))
		if err := x.importBatch(ctx, objects[start:end]); err != nil {
			return err
		}
	}
	return nil
}

// ensureTenants creates the Weaviate tenants of objects in both
// collections, once per tenant and process. Weaviate would create a tenant on
// its first object by itself, but only in the collection that object goes
// to; a search of both collections would then fail on the other one.
// Creating an existing tenant is a no-op in Weaviate.
func (x *Index) ensureTenants(ctx context.Context, objects []*models.Object) error {
	var missing []models.Tenant
	for _, obj := range objects {
		if _, ok := x.tenants.Load(obj.Tenant); ok {
			continue
		}
		if !slices.ContainsFunc(missing, func(t models.Tenant) bool { return t.Name == obj.Tenant }) {
			missing = append(missing, models.Tenant{Name: obj.Tenant})
		}
	}
	if len(missing) == 0 {
		return nil
	}
	for _, class := range []string{FactCollection, EpisodeCollection} {
		if err := x.client.Schema().TenantsCreator().WithClassName(class).WithTenants(missing...).Do(ctx); err != nil {
			return fmt.Errorf("weaviate: create tenants in %s: %w", class, wrapErr(err))
		}
	}
	for _, t := range missing {
		x.tenants.Store(t.Name, struct{}{})
	}
	return nil
}

// toObject validates a document and converts it to a Weaviate object.
func toObject(d *lore.IndexDoc) (*models.Object, error) {
	if d.ID == "" {
		return nil, lore.Errorf(lore.EINVALID, "index document has no id")
	}
	if err := lore.ValidateID("id", d.ID); err != nil {
		return nil, err
	}
	if err := d.Scope.Validate(); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "index document %q: %s", d.ID, lore.ErrorMessage(err))
	}
	class, err := collectionFor(d.Kind)
	if err != nil {
		return nil, err
	}
	for _, v := range d.Vector {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, lore.Errorf(lore.EINVALID, "index document %q: vector holds NaN or infinity", d.ID)
		}
	}
	obj := &models.Object{
		Class:  class,
		ID:     strfmt.UUID(objectID(d.ID)),
		Tenant: tenantName(d.Scope.TenantID),
		Properties: map[string]any{
			propID:     d.ID,
			propTenant: d.Scope.TenantID,
			propUser:   d.Scope.UserID,
			propAgent:  d.Scope.AgentID,
			propRun:    d.Scope.RunID,
			propText:   d.Text,
			propTerms:  terms.Joined(d.Text),
			propTime:   formatTime(d.Time),
		},
	}
	if len(d.Vector) > 0 {
		obj.Vector = models.C11yVector(d.Vector)
	}
	return obj, nil
}

// importBatch sends one batch and reports the objects Weaviate refused.
func (x *Index) importBatch(ctx context.Context, objects []*models.Object) error {
	res, err := x.client.Batch().ObjectsBatcher().WithObjects(objects...).Do(ctx)
	if err != nil {
		return fmt.Errorf("weaviate: upsert: %w", wrapErr(err))
	}
	var failed []string
	for _, r := range res {
		if r.Result == nil || r.Result.Errors == nil {
			continue
		}
		for _, e := range r.Result.Errors.Error {
			if e == nil {
				continue
			}
			id := ""
			if p, ok := r.Properties.(map[string]any); ok {
				id, _ = p[propID].(string)
			}
			failed = append(failed, fmt.Sprintf("%s: %s", id, e.Message))
		}
	}
	if len(failed) > 0 {
		n, more := len(failed), ""
		if len(failed) > 3 {
			more = fmt.Sprintf(" (and %d more)", len(failed)-3)
			failed = failed[:3]
		}
		return fmt.Errorf("weaviate: upsert: %d of %d objects refused: %s%s", n, len(objects), strings.Join(failed, "; "), more)
	}
	return nil
}

// Delete removes the documents with these ids that scope Contains, facts
// and episodes alike. Ids outside the scope or never indexed are ignored.
func (x *Index) Delete(ctx context.Context, scope lore.Scope, ids []string) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	for start := 0; start < len(ids); start += deleteBatch {
		chunk := ids[start:min(start+deleteBatch, len(ids))]
		for _, class := range []string{FactCollection, EpisodeCollection} {
			if _, err := x.deleteWhere(ctx, class, scope.TenantID, idsFilter(scope, chunk)); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeleteScope removes every document scope Contains. Its cost is linear in
// the number of those documents; the rest of the Weaviate tenant is not
// touched. A scope naming a tenant alone drops it (DropTenant).
func (x *Index) DeleteScope(ctx context.Context, scope lore.Scope) error {
	if err := scope.ValidateErase(); err != nil {
		return err
	}
	if scope.UserID == "" && scope.AgentID == "" && scope.RunID == "" {
		// An erase of the whole tenant.
		return x.DropTenant(ctx, scope.TenantID)
	}
	filter := and(scopeFilter(scope))
	for _, class := range []string{FactCollection, EpisodeCollection} {
		for round := 0; ; round++ {
			if round == maxDeleteRounds {
				return fmt.Errorf("weaviate: delete scope from %s: still matching after %d rounds", class, round)
			}
			n, err := x.deleteWhere(ctx, class, scope.TenantID, filter)
			if err != nil {
				return err
			}
			if n == 0 {
				break
			}
		}
	}
	return nil
}

// DropTenant removes every document of a Lore tenant by dropping its
// Weaviate tenant from both collections, at a cost that does not depend on
// how many documents it held. Dropping a tenant that has none is not an error.
func (x *Index) DropTenant(ctx context.Context, tenantID string) error {
	if tenantID == "" {
		return lore.Errorf(lore.EINVALID, "tenant_id is required")
	}
	if err := lore.ValidateID("tenant_id", tenantID); err != nil {
		return err
	}
	x.tenants.Delete(tenantName(tenantID))
	for _, class := range []string{FactCollection, EpisodeCollection} {
		err := x.client.Schema().TenantsDeleter().WithClassName(class).WithTenants(tenantName(tenantID)).Do(ctx)
		if err != nil {
			return fmt.Errorf("weaviate: drop tenant from %s: %w", class, wrapErr(err))
		}
	}
	return nil
}

// deleteWhere deletes the objects of class in a Lore tenant that match the
// filter, at most one server-side page of them, and returns how many it
// deleted. A tenant that does not exist holds nothing to delete.
func (x *Index) deleteWhere(ctx context.Context, class, tenantID string, where *models.WhereFilter) (int64, error) {
	res, err := x.client.Batch().ObjectsBatchDeleter().
		WithClassName(class).
		WithTenant(tenantName(tenantID)).
		WithOutput("minimal").
		WithWhere(whereBuilder(where)).
		Do(ctx)
	if err != nil {
		if isTenantMissing(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("weaviate: delete from %s: %w", class, wrapErr(err))
	}
	if res.Results == nil {
		return 0, nil
	}
	if res.Results.Failed > 0 {
		return 0, fmt.Errorf("weaviate: delete from %s: %d of %d objects failed", class, res.Results.Failed, res.Results.Matches)
	}
	return res.Results.Successful, nil
}

// isTenantMissing reports whether a REST error says the Weaviate tenant does
// not exist.
func isTenantMissing(err error) bool {
	code := statusCode(err)
	return (code == http.StatusUnprocessableEntity || code == http.StatusNotFound) &&
		strings.Contains(err.Error(), "tenant not found")
}
