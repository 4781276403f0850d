package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/client"
	"github.com/lore-memory/lore/retrieve"
)

func (m *Main) search(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("search", "--user ID [flags] query...")
	cfg.register(fs, e)
	sf.register(fs, e)
	var rf remoteFlags
	rf.register(fs, e)
	topK := fs.Int("top-k", retrieve.DefaultTopK, "number of results")
	explain := fs.Bool("explain", false, "show each result's per-signal scores")
	invalidated := fs.Bool("include-invalidated", false, "include facts that are no longer true")
	asJSON := fs.Bool("json", false, "print JSON")
	at := fs.String("at", "", "ask as of this time (RFC 3339 or YYYY-MM-DD): \"last week\" in the query is the week before it (default now)")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	queryTime, err := lore.ParseTime("--at", *at)
	if err != nil {
		return err
	}
	scope, err := sf.scope()
	if err != nil {
		return err
	}
	req := retrieve.Request{Scope: scope, TopK: *topK, Explain: *explain, IncludeInvalidated: *invalidated}
	if queryTime != nil {
		req.QueryTime = *queryTime
	}
	query := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if query == "" {
		return lore.Errorf(lore.EINVALID, "no query: give it as arguments")
	}
	if *topK < 1 {
		return lore.Errorf(lore.EINVALID, "--top-k must be at least 1")
	}
	if rf.Server != "" {
		return m.searchRemote(ctx, rf, scope, client.SearchRequest{Query: query, TopK: *topK, Explain: *explain,
			IncludeInvalidated: *invalidated, QueryTime: queryTime}, *explain, *asJSON)
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	req.Query = query
	resp, err := b.pipeline().Search(ctx, req)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(m.Stdout, resp)
	}
	printResults(m.Stdout, resp, *explain)
	return nil
}

// printResults prints a search answer for people: one numbered line per
// result with its date, its source turns indented below.
func printResults(w io.Writer, resp *retrieve.Response, explain bool) {
	if len(resp.Results) == 0 {
		fmt.Fprintln(w, "no memories found")
		return
	}
	for i, r := range resp.Results {
		fmt.Fprintf(w, "%2d. %.3f %-7s %s\n", i+1, r.Score, r.Type, r.Memory)
		if r.Fact != nil && (r.Fact.InvalidAt != nil || r.Fact.ExpiredAt != nil) {
			fmt.Fprintln(w, "             (superseded: no longer current)")
		}
		for _, src := range r.Sources {
			id := src.SourceID
			if id == "" {
				id = src.EpisodeID
			}
			fmt.Fprintf(w, "             %s %s: %s\n", src.OccurredAt.Format("2006-01-02"), id, oneLine(src.Content, 100))
		}
		if explain && len(r.ScoreDetails) > 0 {
			keys := make([]string, 0, len(r.ScoreDetails))
			for k := range r.ScoreDetails {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			parts := make([]string, len(keys))
			for j, k := range keys {
				parts[j] = fmt.Sprintf("%s=%.3f", k, r.ScoreDetails[k])
			}
			fmt.Fprintf(w, "             scores: %s\n", strings.Join(parts, " "))
		}
	}
	if len(resp.Entities) > 0 {
		names := make([]string, len(resp.Entities))
		for i, ent := range resp.Entities {
			names[i] = ent.Name
		}
		fmt.Fprintf(w, "entities: %s\n", strings.Join(names, ", "))
	}
}

// oneLine folds white space and cuts s to at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
