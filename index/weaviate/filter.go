package weaviate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"
)

// idNamespace is the UUIDv5 namespace of Weaviate object ids derived from
// Lore ids. Changing it orphans every indexed object.
var idNamespace = uuid.MustParse("6f1c1f9e-3b0e-4d4a-9d8e-5a0c1b7e4c21")

// objectID derives the Weaviate id of a document: Weaviate needs a UUID and
// Lore's ids are arbitrary strings, so the same Lore id always maps to the
// same object and Upsert replaces it.
func objectID(loreID string) string {
	return uuid.NewSHA1(idNamespace, []byte(loreID)).String()
}

// tenantName maps a Lore tenant id to a Weaviate tenant name, which must
// match [A-Za-z0-9_-]{1,64}. Short ids of lower-case letters, digits and
// hyphens are used as they are, so "default" reads as "default" in Weaviate's
// console; anything else becomes "x_" and a SHA-256 prefix. The underscore
// never occurs in a verbatim name, so the mapping is one-to-one.
func tenantName(tenantID string) string {
	if len(tenantID) > 0 && len(tenantID) <= 48 && strings.Trim(tenantID, "abcdefghijklmnopqrstuvwxyz0123456789-") == "" {
		return tenantID
	}
	sum := sha256.Sum256([]byte(tenantID))
	return "x_" + hex.EncodeToString(sum[:24])
}

// collectionFor returns the collection of a document kind.
func collectionFor(kind lore.DocKind) (string, error) {
	switch kind {
	case lore.KindFact:
		return FactCollection, nil
	case lore.KindEpisode:
		return EpisodeCollection, nil
	}
	return "", lore.Errorf(lore.EINVALID, "unknown document kind %q", kind)
}

// kindOf is the inverse of collectionFor.
func kindOf(class string) lore.DocKind {
	if class == FactCollection {
		return lore.KindFact
	}
	return lore.KindEpisode
}

// collectionsFor returns the collections a query searches: both when kinds
// is empty.
func collectionsFor(kinds []lore.DocKind) ([]string, error) {
	if len(kinds) == 0 {
		return []string{FactCollection, EpisodeCollection}, nil
	}
	var out []string
	for _, k := range kinds {
		c, err := collectionFor(k)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// whereBuilder converts a filter to the client's builder, which the batch
// delete endpoint takes. Only the value kinds this package builds occur.
func whereBuilder(f *models.WhereFilter) *filters.WhereBuilder {
	b := filters.Where().WithOperator(filters.WhereOperator(f.Operator)).WithPath(f.Path)
	if len(f.Operands) > 0 {
		ops := make([]*filters.WhereBuilder, len(f.Operands))
		for i, op := range f.Operands {
			ops[i] = whereBuilder(op)
		}
		b.WithOperands(ops)
	}
	switch {
	case f.ValueText != nil:
		b.WithValueText(*f.ValueText)
	case f.ValueTextArray != nil:
		b.WithValueText(f.ValueTextArray...)
	case f.ValueDate != nil:
		// Dates are built by formatTime, so they always parse.
		t, _ := time.Parse(time.RFC3339Nano, *f.ValueDate)
		b.WithValueDate(t)
	}
	return b
}

// scopeFilter selects the documents scope Contains. The Weaviate tenant
// already holds one Lore tenant only; the tenant_id operand stays as a second
// guard, so even two tenant ids that hashed alike could never see each
// other's documents. A field the scope leaves empty is not filtered, but an
// agent-only scope selects documents with no user, exactly as in
// lore.Scope.Contains.
func scopeFilter(scope lore.Scope) []*models.WhereFilter {
	out := []*models.WhereFilter{textEqual(propTenant, scope.TenantID)}
	if scope.UserID == "" && scope.AgentID != "" {
		// An agent-only read sees the agent's own documents (no user).
		out = append(out, textEqual(propUser, ""))
	}
	for _, f := range []struct{ prop, value string }{
		{propUser, scope.UserID}, {propAgent, scope.AgentID}, {propRun, scope.RunID},
	} {
		if f.value != "" {
			out = append(out, textEqual(f.prop, f.value))
		}
	}
	return out
}

// queryFilter adds the time range of q to its scope filter.
func queryFilter(q lore.IndexQuery) *models.WhereFilter {
	ops := scopeFilter(q.Scope)
	if q.Since != nil {
		ops = append(ops, dateCompare(propTime, "GreaterThanEqual", *q.Since))
	}
	if q.Until != nil {
		ops = append(ops, dateCompare(propTime, "LessThan", *q.Until))
	}
	return and(ops)
}

// idsFilter selects the documents of scope whose Lore id is one of ids.
func idsFilter(scope lore.Scope, ids []string) *models.WhereFilter {
	return and(append(scopeFilter(scope), &models.WhereFilter{
		Operator: "ContainsAny", Path: []string{propID}, ValueTextArray: ids,
	}))
}

func and(ops []*models.WhereFilter) *models.WhereFilter {
	if len(ops) == 1 {
		return ops[0]
	}
	return &models.WhereFilter{Operator: "And", Operands: ops}
}

func textEqual(prop, value string) *models.WhereFilter {
	return &models.WhereFilter{Operator: "Equal", Path: []string{prop}, ValueText: &value}
}

func dateCompare(prop, op string, t time.Time) *models.WhereFilter {
	v := formatTime(t)
	return &models.WhereFilter{Operator: op, Path: []string{prop}, ValueDate: &v}
}

// formatTime renders a time as Weaviate stores dates: RFC 3339 in UTC.
func formatTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

// gqlString quotes s for GraphQL. JSON's string escapes are a subset of
// GraphQL's, so any text, including quotes, back-slashes and control
// characters from a user's query, stays a single string literal.
func gqlString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// gqlWhere renders a filter as a GraphQL where argument's value. Only the
// operators and value kinds this package builds are rendered.
func gqlWhere(f *models.WhereFilter) string {
	var b strings.Builder
	writeWhere(&b, f)
	return b.String()
}

func writeWhere(b *strings.Builder, f *models.WhereFilter) {
	b.WriteString("{operator:")
	b.WriteString(f.Operator) // one of this package's constants, never user text
	if len(f.Operands) > 0 {
		b.WriteString(",operands:[")
		for i, op := range f.Operands {
			if i > 0 {
				b.WriteByte(',')
			}
			writeWhere(b, op)
		}
		b.WriteByte(']')
	}
	if len(f.Path) > 0 {
		b.WriteString(",path:[")
		for i, p := range f.Path {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(gqlString(p))
		}
		b.WriteByte(']')
	}
	switch {
	case f.ValueText != nil:
		b.WriteString(",valueText:")
		b.WriteString(gqlString(*f.ValueText))
	case f.ValueTextArray != nil:
		b.WriteString(",valueText:[")
		for i, v := range f.ValueTextArray {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(gqlString(v))
		}
		b.WriteByte(']')
	case f.ValueDate != nil:
		b.WriteString(",valueDate:")
		b.WriteString(gqlString(*f.ValueDate))
	}
	b.WriteByte('}')
}

// gqlVector renders a vector as a GraphQL list of floats. It reports false
// for NaN or infinite components, which no distance can rank.
func gqlVector(v []float32) (string, bool) {
	var b strings.Builder
	b.Grow(len(v) * 12)
	b.WriteByte('[')
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return "", false
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteByte(']')
	return b.String(), true
}
