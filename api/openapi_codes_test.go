package api

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lore-memory/lore"
)

// TestOpenAPIErrorCodes: the Error schema's code enum lists every code an
// answer can carry, so a client (or schemathesis) validating a 401, 403,
// 415 or 429 body against the document accepts it.
func TestOpenAPIErrorCodes(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Properties map[string]struct {
						Enum []string `json:"enum"`
					} `json:"properties"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(OpenAPI(), &doc); err != nil {
		t.Fatal(err)
	}
	enum := doc.Components.Schemas["Error"].Properties["error"].Properties["code"].Enum
	for _, code := range []string{lore.EINVALID, lore.EUNAUTHORIZED, lore.EFORBIDDEN, lore.ENOTFOUND, lore.ECONFLICT,
		lore.ETOOLARGE, lore.EMEDIATYPE, lore.ERATELIMITED, lore.EUNAVAILABLE, lore.EINTERNAL, "method_not_allowed"} {
		if !slices.Contains(enum, code) {
			t.Errorf("Error.code enum %v lacks %q", enum, code)
		}
	}
}
