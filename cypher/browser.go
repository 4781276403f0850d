package cypher

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

//go:embed browser/*.cypher
var browserFiles embed.FS

// Browser returns the operator's queries of docs/neo4j-browser.md by name:
// plain Cypher (no template) with parameters ($tenant, $user, $fact, $name,
// $days, $limit) that Neo4j Browser sets with :param. The store never runs
// them; graph/neo4j's tests do, so that none goes stale.
func Browser() (map[string]string, error) {
	entries, err := fs.ReadDir(browserFiles, "browser")
	if err != nil {
		return nil, fmt.Errorf("cypher: list browser queries: %w", err)
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		if path.Ext(e.Name()) != ".cypher" {
			continue
		}
		b, err := browserFiles.ReadFile("browser/" + e.Name())
		if err != nil {
			return nil, fmt.Errorf("cypher: browser query %q: %w", e.Name(), err)
		}
		out[strings.TrimSuffix(e.Name(), ".cypher")] = string(b)
	}
	return out, nil
}
