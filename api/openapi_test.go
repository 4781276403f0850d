package api

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestOpenAPIMatchesRoutes fails when gin serves a route that the OpenAPI
// document does not describe, or the document describes one gin does not
// serve.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatalf("openapi.json is not valid JSON: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi=%q, want 3.x", doc.OpenAPI)
	}
	documented := map[string]bool{}
	opIDs := map[string]string{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			route := strings.ToUpper(method) + " " + path
			documented[route] = true
			var op struct {
				OperationID string                     `json:"operationId"`
				Responses   map[string]json.RawMessage `json:"responses"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s: %v", route, err)
			}
			if op.OperationID == "" || len(op.Responses) == 0 {
				t.Errorf("%s: operationId %q, %d responses; want both", route, op.OperationID, len(op.Responses))
			}
			if other, dup := opIDs[op.OperationID]; dup {
				t.Errorf("operationId %q is used by %s and %s", op.OperationID, other, route)
			}
			opIDs[op.OperationID] = route
		}
	}
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	served := map[string]bool{}
	e := newEnv(t)
	for _, r := range e.srv.engine().Routes() {
		served[r.Method+" "+param.ReplaceAllString(r.Path, "{$1}")] = true
	}
	for route := range served {
		if !documented[route] {
			t.Errorf("route %s is served but not in openapi.json", route)
		}
	}
	for route := range documented {
		if !served[route] {
			t.Errorf("openapi.json documents %s, which is not served", route)
		}
	}
	if len(served) < 15 {
		t.Errorf("only %d routes served, want every route of the API", len(served))
	}
}

// TestOpenAPIReferencesResolve checks that every $ref names a schema the
// document defines.
func TestOpenAPIReferencesResolve(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	raw := OpenAPI()
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("decode: %v", err)
	}
	refs := regexp.MustCompile(`"\$ref":\s*"#/components/schemas/([A-Za-z]+)"`).FindAllSubmatch(raw, -1)
	if len(refs) == 0 {
		t.Fatalf("no $ref found")
	}
	var missing []string
	for _, m := range refs {
		if _, ok := doc.Components.Schemas[string(m[1])]; !ok && !slices.Contains(missing, string(m[1])) {
			missing = append(missing, string(m[1]))
		}
	}
	if len(missing) > 0 {
		t.Errorf("undefined schemas referenced: %v", missing)
	}
}

func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	rec := e.must(http.StatusOK, "GET", "/openapi.json", nil)
	if rec.Body.String() != string(OpenAPI()) {
		t.Errorf("GET /openapi.json differs from the embedded document")
	}
}
