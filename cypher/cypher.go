// Package cypher holds every Cypher statement graph/neo4j runs, one .cypher
// file per statement named after the store method that runs it, and the
// schema (constraints and indexes) in schema/, applied in file name order.
//
// Statements are Go text/template sources: the store renders the scope
// predicate and optional filters from a fixed set of fragments, so that each
// query shape gets its own cached plan on its own index. Values are always
// parameters; no user text is ever rendered into a statement.
package cypher

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed *.cypher schema/*.cypher
var files embed.FS

// Statement returns the source of the statement named name (the file name
// without .cypher).
func Statement(name string) (string, error) {
	b, err := files.ReadFile(name + ".cypher")
	if err != nil {
		return "", fmt.Errorf("cypher: statement %q: %w", name, err)
	}
	return string(b), nil
}

// Statements returns every statement's source by name.
func Statements() (map[string]string, error) {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, fmt.Errorf("cypher: list statements: %w", err)
	}
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".cypher" {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".cypher")
		src, err := Statement(name)
		if err != nil {
			return nil, err
		}
		out[name] = src
	}
	return out, nil
}

// Schema returns the schema statements in the order they are applied. Each
// is idempotent (IF NOT EXISTS).
func Schema() ([]string, error) {
	entries, err := fs.ReadDir(files, "schema")
	if err != nil {
		return nil, fmt.Errorf("cypher: list schema: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if path.Ext(e.Name()) == ".cypher" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	out := make([]string, 0, len(names))
	for _, n := range names {
		b, err := files.ReadFile("schema/" + n)
		if err != nil {
			return nil, fmt.Errorf("cypher: schema %q: %w", n, err)
		}
		out = append(out, string(b))
	}
	return out, nil
}
