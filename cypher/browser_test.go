package cypher

import (
	"os"
	"strings"
	"testing"
)

// TestBrowserQueriesAreDocumented: docs/neo4j-browser.md shows every
// operator query verbatim, so the page cannot drift from the files that
// graph/neo4j's TestBrowserQueries runs.
func TestBrowserQueriesAreDocumented(t *testing.T) {
	queries, err := Browser()
	if err != nil {
		t.Fatal(err)
	}
	if len(queries) < 8 {
		t.Fatalf("%d browser queries, want the operator's set (graph, history, sources, status, hubs, counts, …)", len(queries))
	}
	doc, err := os.ReadFile("../docs/neo4j-browser.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range queries {
		if !strings.Contains(string(doc), "```cypher\n"+src+"```") {
			t.Errorf("docs/neo4j-browser.md does not show cypher/browser/%s.cypher verbatim", name)
		}
		if strings.Contains(src, "{{") {
			t.Errorf("%s is a template; Browser queries must be plain Cypher", name)
		}
	}
}
