package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestQueryPlansUseIndexes checks that the hot and scoped statements reach
// their rows through an index (SQLite reports SEARCH), never by scanning a
// whole table, whichever tenants the database holds.
func TestQueryPlansUseIndexes(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "lore.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer st.Close()
	user := lore.Scope{TenantID: "t", UserID: "u"}
	agent := lore.Scope{TenantID: "t", AgentID: "a"}
	now := time.Now()
	type stmt struct {
		name string
		sql  string
		args []any
		want string // indexes the plan must use, comma-separated (or PRIMARY KEY)
	}
	var cases []stmt
	add := func(name, sql string, args []any) { cases = append(cases, stmt{name, sql, args, ""}) }
	// must registers a statement whose plan must use the index.
	must := func(index, name, sql string, args []any) { cases = append(cases, stmt{name, sql, args, index}) }
	q, a := episodeQuery(lore.EpisodeFilter{Scope: user, Limit: 10}, now)
	must("episodes_user", "episodes of a user", q, a)
	q, a = episodeQuery(lore.EpisodeFilter{Scope: agent}, now)
	must("episodes_agent", "episodes of an agent", q, a)
	q, a = episodeQuery(lore.EpisodeFilter{Scope: lore.Scope{TenantID: "t", UserID: "u", RunID: "r"}}, now)
	must("episodes_run", "episodes of a run", q, a)
	q, a = speakersQuery(user)
	must("episodes_user_speaker", "speakers of a user", q, a)
	q, a = speakersQuery(agent)
	must("episodes_agent_speaker", "speakers of an agent", q, a)
	q, a = episodeQuery(lore.EpisodeFilter{Scope: user, IDs: []string{"x", "y"}}, now)
	must("sqlite_autoindex_episodes_1", "episodes by id", q, a)
	q, a = factQuery(lore.FactFilter{Scope: user, Limit: 20}, now)
	must("facts_user", "facts of a user", q, a)
	q, a = factQuery(lore.FactFilter{Scope: agent}, now)
	must("facts_agent", "facts of an agent", q, a)
	q, a = factQuery(lore.FactFilter{Scope: user, SubjectID: "e1", Predicate: "likes"}, now)
	must("facts_subject", "facts by subject", q, a)
	q, a = factQuery(lore.FactFilter{Scope: user, EntityID: "e1"}, now)
	must("facts_subject,facts_object", "facts by either end", q, a)
	q, a = touchingQuery(user, []string{"e1", "e2"}, false, now, 100)
	must("facts_subject,facts_object", "neighbourhood hop", q, a)
	must("facts_subject", "merge fact duplicate", duplicateSQL, []any{"e1", "likes", "literal:tea", "t", "u", "", 1, 1})
	add("resolve entity", resolveSQL, []any{"t", "u", "", "alice", "t", "u", "", "alice"})
	q, a = claimQuery(micros(now), []string{"busy"}, 0)
	must("jobs_due", "claim job", q, a)
	q, a = claimQuery(micros(now), []string{"busy"}, 2)
	must("jobs_due,jobs_lease", "claim job under a per-tenant limit", q, a)
	q, a = entityQuery(lore.EntityFilter{Scope: user, Names: []string{"alice", "bob"}})
	must("entities_user_name,entity_aliases_user", "entities of a user by name", q, a)
	q, a = entityQuery(lore.EntityFilter{Scope: lore.Scope{TenantID: "t", UserID: "u", AgentID: "a"}, Names: []string{"alice"}})
	must("sqlite_autoindex_entities_2,sqlite_autoindex_entity_aliases_1", "entities of a namespace by name", q, a)
	q, a = entityQuery(lore.EntityFilter{Scope: user, IDs: []string{"e1"}})
	must("sqlite_autoindex_entities_1", "entities by id", q, a)
	q, a = historyQuery(user, "m")
	must("history_memory", "history", q, a)
	q, a = factQuery(lore.FactFilter{Scope: user, ObjectID: "e1"}, now)
	must("facts_object", "facts by object", q, a)
	q, a = factQuery(lore.FactFilter{Scope: user, IDs: []string{"f1"}}, now)
	must("sqlite_autoindex_facts_1", "facts by id", q, a)
	for _, table := range []string{"facts", "episodes", "jobs", "history", "docs"} {
		var w where
		w.scope("", user)
		add("delete scope "+table, "DELETE FROM "+table+" WHERE "+w.sql(), w.args)
		w = where{}
		w.scope("", agent)
		add("delete agent scope "+table, "DELETE FROM "+table+" WHERE "+w.sql(), w.args)
	}
	var w where
	w.namespace("", user)
	add("delete scope entities", "DELETE FROM entities WHERE "+w.sql(), w.args)
	must("PRIMARY KEY", "postings of a term", postingsSQL, []any{readKey(user).part(), "dinner"})
	must("doc_terms_seq", "remove a document's postings", unpostSQL, []any{1})
	must("PRIMARY KEY", "document frequencies", docFreqsSQL(2), []any{readKey(user).part(), "dinner", "sushi"})
	must("PRIMARY KEY", "postings of a term in some documents", postingsInSQL(3), []any{readKey(user).part(), "dinner", 1, 2, 3})
	must("docs_unposted", "documents to backfill", unpostedSQL, []any{500})
	since := now.Add(-time.Hour)
	for _, sc := range []lore.Scope{user, agent, {TenantID: "t", UserID: "u", AgentID: "a", RunID: "r"}} {
		q, a := checkQuery(lore.IndexQuery{Scope: sc, Kinds: []lore.DocKind{lore.KindFact}, Since: &since}, []int64{1, 2, 3})
		must("INTEGER PRIMARY KEY", "check text candidates", q, a)
	}
	for _, c := range cases {
		rows, err := st.r.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.sql, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "USING") {
				t.Errorf("%s: plan %q scans a whole table, want index searches", c.name, plan)
			}
		}
		for _, index := range strings.FieldsFunc(c.want, func(r rune) bool { return r == ',' }) {
			step := "INDEX " + index + " "
			if strings.HasSuffix(index, "PRIMARY KEY") {
				step = "USING " + index + " "
			}
			if !strings.Contains(strings.Join(plan, " ")+" ", step) {
				t.Errorf("%s: plan %q does not use %s", c.name, plan, index)
			}
		}
	}
}
