package neo4j_test

import (
	"context"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/dbtype"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/cypher"
)

// TestBrowserQueries runs every operator query of docs/neo4j-browser.md
// (cypher/browser/*.cypher) against a real Neo4j holding a small user: one
// who lived in Paris, moved to Lyon (the Paris fact superseded), and has a
// sister Emma in Rome who works as an architect. Each query must give the
// rows that user calls for, so none goes stale when the model changes.
func TestBrowserQueries(t *testing.T) {
	st := mustOpen(t)
	ctx := context.Background()
	sc := testScope(t, st)
	may1 := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	june20 := time.Date(2024, 6, 20, 10, 0, 0, 0, time.UTC)

	ep1 := &lore.Episode{ID: uuid.NewString(), Scope: sc, Role: "user", Content: "I live in Paris. My sister Emma lives in Rome and works as an architect.",
		OccurredAt: may1, CreatedAt: may1, UpdatedAt: may1, SourceID: "S1:1"}
	ep2 := &lore.Episode{ID: uuid.NewString(), Scope: sc, Role: "user", Content: "I moved to Lyon.", OccurredAt: june20, CreatedAt: june20, UpdatedAt: june20, SourceID: "S2:1"}
	if err := st.AddEpisodes(ctx, []*lore.Episode{ep1, ep2}); err != nil {
		t.Fatalf("AddEpisodes: %v", err)
	}
	entity := func(name, typ string) *lore.Entity {
		e, err := st.MergeEntity(ctx, &lore.Entity{Scope: sc, Name: name, Type: typ, FirstSeen: may1, LastSeen: may1})
		if err != nil {
			t.Fatalf("MergeEntity %s: %v", name, err)
		}
		return e
	}
	user, paris, lyon, rome, emma := entity("alice", lore.UserEntityType), entity("Paris", "place"), entity("Lyon", "place"), entity("Rome", "place"), entity("Emma", "person")
	fact := func(s *lore.Entity, pred string, o *lore.Entity, literal, text string, ep *lore.Episode) *lore.Fact {
		f := &lore.Fact{Scope: sc, SubjectID: s.ID, Predicate: pred, Text: text, Confidence: 0.9, ValidAt: &ep.OccurredAt,
			FirstSeen: ep.OccurredAt, LastSeen: ep.OccurredAt, SourceEpisodeIDs: []string{ep.ID}}
		if o != nil {
			f.ObjectID, f.Object = o.ID, o.Name
		} else {
			f.Object = literal
		}
		got, _, err := st.MergeFact(ctx, f, "test")
		if err != nil {
			t.Fatalf("MergeFact %s: %v", text, err)
		}
		return got
	}
	inParis := fact(user, "lives_in", paris, "", "user lives in Paris", ep1)
	fact(user, "has_sister", emma, "", "Emma is user's sister", ep1)
	fact(emma, "lives_in", rome, "", "user's sister Emma lives in Rome", ep1)
	fact(emma, "works_as", nil, "architect", "user's sister Emma works as an architect", ep1)
	superseded := time.Now().UTC().Add(-time.Minute)
	if _, err := st.UpdateFact(ctx, sc, inParis.ID, lore.FactUpdate{InvalidAt: &june20, ExpiredAt: &superseded,
		Event: lore.EventInvalidate, Actor: "test", Reason: "moved to Lyon"}); err != nil {
		t.Fatalf("UpdateFact: %v", err)
	}
	fact(user, "lives_in", lyon, "", "user moved to Lyon", ep2)

	for _, e := range []lore.ProfileEntry{
		{Key: "diet", Value: "vegetarian", Confidence: 1, Source: lore.ProfileExplicit, UpdatedAt: may1},
		{Key: "diet", Value: "vegan", Confidence: 1, Source: lore.ProfileExplicit, UpdatedAt: june20},
	} {
		if _, err := st.PutProfileEntry(ctx, sc, e); err != nil {
			t.Fatalf("PutProfileEntry: %v", err)
		}
	}

	queries, err := cypher.Browser()
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, extra map[string]any) []map[string]any {
		t.Helper()
		src, ok := queries[name]
		if !ok {
			t.Fatalf("no browser query %s", name)
		}
		params := map[string]any{"tenant": sc.TenantID, "user": sc.UserID, "limit": int64(100)}
		for k, v := range extra {
			params[k] = v
		}
		return query(t, src, params)
	}
	checked := map[string]bool{}
	check := func(name string, extra map[string]any, verify func(rows []map[string]any) string) {
		t.Helper()
		checked[name] = true
		start := time.Now()
		rows := run(name, extra)
		t.Logf("%s: %d rows in %s", name, len(rows), time.Since(start).Round(time.Millisecond))
		if msg := verify(rows); msg != "" {
			t.Errorf("%s: %s; rows %v", name, msg, rows)
		}
	}

	check("UserGraph", nil, func(rows []map[string]any) string {
		var edges []string
		for _, r := range rows {
			edges = append(edges, prop(r["s"], "name")+" "+prop(r["f"], "predicate")+" "+prop(r["o"], "name"))
		}
		sort.Strings(edges)
		want := []string{"Emma lives_in Rome", "alice has_sister Emma", "alice lives_in Lyon"}
		if !slices.Equal(edges, want) {
			return "edges " + strings.Join(edges, ", ") + ", want " + strings.Join(want, ", ") + " (no superseded Paris, no literal)"
		}
		return ""
	})
	check("CurrentAndSuperseded", nil, func(rows []map[string]any) string {
		status := map[string]string{}
		for _, r := range rows {
			status[r["fact"].(string)] = r["status"].(string)
		}
		if len(rows) != 5 || status["user lives in Paris"] != "superseded" || status["user moved to Lyon"] != "current" ||
			status["user's sister Emma works as an architect"] != "current" || rows[len(rows)-1]["status"] != "superseded" {
			return "want 5 facts, Paris superseded and last, Lyon and the literal architect fact current"
		}
		return ""
	})
	check("Supersessions", nil, func(rows []map[string]any) string {
		if len(rows) != 1 || rows[0]["superseded"] != "user lives in Paris" || !slices.Contains(rows[0]["current"].([]any), any("user moved to Lyon")) {
			return "want Paris superseded by Lyon"
		}
		return ""
	})
	check("FactHistory", map[string]any{"fact": inParis.ID}, func(rows []map[string]any) string {
		var events []string
		for _, r := range rows {
			events = append(events, r["event"].(string))
		}
		if !slices.Equal(events, []string{"ADD", "INVALIDATE"}) || rows[1]["reason"] != "moved to Lyon" {
			return "events " + strings.Join(events, ",") + ", want ADD,INVALIDATE with the reason"
		}
		return ""
	})
	check("FactSources", map[string]any{"fact": inParis.ID}, func(rows []map[string]any) string {
		if len(rows) != 1 || rows[0]["content"] != ep1.Content || rows[0]["caller_id"] != "S1:1" {
			return "want the one source turn S1:1"
		}
		return ""
	})
	check("HubEntities", nil, func(rows []map[string]any) string {
		if len(rows) == 0 || rows[0]["entity"] != "Emma" || rows[0]["facts"] != int64(3) {
			return "want Emma first with 3 current facts (sister, Rome, architect)"
		}
		return ""
	})
	check("EntityNeighbourhood", map[string]any{"name": lore.NormalizeName("Emma")}, func(rows []map[string]any) string {
		names := map[string]bool{}
		for _, r := range rows {
			for _, n := range r["p"].(dbtype.Path).Nodes {
				if name, ok := n.Props["name"].(string); ok {
					names[name] = true
				}
			}
		}
		if !names["Rome"] || !names["alice"] || !names["Lyon"] || names["Paris"] {
			return "want Rome, alice and Lyon within two hops of Emma, never Paris (two hops too, but superseded)"
		}
		return ""
	})
	check("RecentChanges", map[string]any{"days": int64(7)}, func(rows []map[string]any) string {
		events := map[string]int{}
		for _, r := range rows {
			events[r["event"].(string)]++
		}
		if events["ADD"] != 5 || events["INVALIDATE"] != 1 {
			return "want the 5 ADDs and the INVALIDATE of this test"
		}
		return ""
	})
	check("UserProfile", nil, func(rows []map[string]any) string {
		if len(rows) != 2 || rows[0]["value"] != "vegan" || rows[0]["current"] != true || rows[1]["value"] != "vegetarian" || rows[1]["current"] != false {
			return "want the current vegan entry, then the vegetarian one it replaced"
		}
		return ""
	})
	check("TenantCounts", nil, func(rows []map[string]any) string {
		for _, r := range rows {
			if r["tenant"] != sc.TenantID {
				continue
			}
			got := []int64{r["users_with_episodes"].(int64), r["users_with_facts"].(int64), r["episodes"].(int64), r["entities"].(int64), r["facts"].(int64), r["current_facts"].(int64)}
			if !slices.Equal(got, []int64{1, 1, 2, 5, 5, 4}) {
				return "this tenant's users, users, episodes, entities, facts, current facts, want 1 1 2 5 5 4"
			}
			return ""
		}
		return "no row for this test's tenant"
	})
	for name := range queries {
		if !checked[name] {
			t.Errorf("browser query %s is not run by this test", name)
		}
	}
}

// query runs a read statement on the test server and returns its rows.
func query(t *testing.T, src string, params map[string]any) []map[string]any {
	t.Helper()
	ctx := context.Background()
	d, err := driver.NewDriverWithContext(serverURL(t), driver.BasicAuth(os.Getenv("LORE_TEST_NEO4J_USER"), os.Getenv("LORE_TEST_NEO4J_PASSWORD"), ""))
	if err != nil {
		t.Fatalf("driver: %v", err)
	}
	defer d.Close(ctx)
	res, err := driver.ExecuteQuery(ctx, d, src, params, driver.EagerResultTransformer, driver.ExecuteQueryWithReadersRouting())
	if err != nil {
		t.Fatalf("query: %v\n%s", err, src)
	}
	rows := make([]map[string]any, len(res.Records))
	for i, rec := range res.Records {
		rows[i] = rec.AsMap()
	}
	return rows
}

// prop reads a string property of a node.
func prop(v any, name string) string {
	n, ok := v.(dbtype.Node)
	if !ok {
		return ""
	}
	s, _ := n.Props[name].(string)
	return s
}
