package llm

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestSchemaIsStrict checks what OpenAI's strict structured output demands
// of a schema: every object closes its properties and requires all of them.
func TestSchemaIsStrict(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatalf("loadPrompts: %v", err)
	}
	var root map[string]any
	if err := json.Unmarshal(p.schema, &root); err != nil {
		t.Fatalf("schema: %v", err)
	}
	var walk func(path string, node map[string]any)
	walk = func(path string, node map[string]any) {
		switch node["type"] {
		case "object":
			if node["additionalProperties"] != false {
				t.Errorf("%s: additionalProperties=%v, want false", path, node["additionalProperties"])
			}
			props, _ := node["properties"].(map[string]any)
			var required []string
			for _, r := range node["required"].([]any) {
				required = append(required, r.(string))
			}
			for name, child := range props {
				if !slices.Contains(required, name) {
					t.Errorf("%s.%s is not required, want every property required", path, name)
				}
				walk(path+"."+name, child.(map[string]any))
			}
			if len(required) != len(props) {
				t.Errorf("%s: %d required for %d properties", path, len(required), len(props))
			}
		case "array":
			walk(path+"[]", node["items"].(map[string]any))
		}
	}
	walk("$", root)
}

// TestPromptsNameEveryField checks that the system prompt explains every
// field the schema asks for, so modes without a schema get the same format.
func TestPromptsNameEveryField(t *testing.T) {
	p, err := loadPrompts()
	if err != nil {
		t.Fatalf("loadPrompts: %v", err)
	}
	var schema struct {
		Properties map[string]struct {
			Items struct {
				Properties map[string]any `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(p.schema, &schema); err != nil {
		t.Fatalf("schema: %v", err)
	}
	for section, s := range schema.Properties {
		if !strings.Contains(p.system, `"`+section+`"`) {
			t.Errorf("system prompt does not describe %q", section)
		}
		for field := range s.Items.Properties {
			if !strings.Contains(p.system, `"`+field+`"`) {
				t.Errorf("system prompt does not describe %s.%s", section, field)
			}
		}
	}
}
