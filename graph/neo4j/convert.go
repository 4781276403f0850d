package neo4j

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/lore-memory/lore"
)

// props is a node's property map with typed getters. Missing or null
// properties read as zero values.
type props map[string]any

func (p props) str(k string) string {
	s, _ := p[k].(string)
	return s
}

func (p props) int(k string) int {
	n, _ := p[k].(int64)
	return int(n)
}

func (p props) float(k string) float64 {
	switch v := p[k].(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	}
	return 0
}

func (p props) bool(k string) bool {
	b, _ := p[k].(bool)
	return b
}

func (p props) time(k string) time.Time {
	t, _ := p[k].(time.Time)
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func (p props) timePtr(k string) *time.Time {
	t, ok := p[k].(time.Time)
	if !ok {
		return nil
	}
	t = t.UTC()
	return &t
}

func (p props) strs(k string) []string {
	list, _ := p[k].([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// jsonMap decodes a map stored as a JSON string (Neo4j properties cannot
// hold maps).
func (p props) jsonMap(k string) (map[string]any, error) {
	s := p.str(k)
	if s == "" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("decode %s: %w", k, err)
	}
	return m, nil
}

func (p props) scope() lore.Scope {
	return lore.Scope{TenantID: p.str("tenant_id"), UserID: p.str("user_id"), AgentID: p.str("agent_id"), RunID: p.str("run_id")}
}

// nodeProps returns the properties of the node in column col of rec.
func nodeProps(rec *neo4j.Record, col string) (props, error) {
	v, ok := rec.Get(col)
	if !ok {
		return nil, fmt.Errorf("no column %q", col)
	}
	n, ok := v.(neo4j.Node)
	if !ok {
		return nil, fmt.Errorf("column %q is %T, want a node", col, v)
	}
	return props(n.Props), nil
}

// scopeParams returns the scope parameters every scoped statement takes.
func scopeParams(sc lore.Scope) map[string]any {
	return map[string]any{
		"tenant_id": sc.TenantID, "user_id": sc.UserID, "agent_id": sc.AgentID, "run_id": sc.RunID,
	}
}

// utc returns t in UTC, or nil for the zero time, as a parameter.
func utc(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// utcPtr returns *t in UTC, or nil, as a parameter.
func utcPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}

// jsonParam encodes a map for storage, nil for an empty one.
func jsonParam(m map[string]any) (any, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "metadata is not JSON-encodable: %v", err)
	}
	return string(b), nil
}

// stringsParam returns ss as a list parameter, never nil.
func stringsParam(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// limitParams returns SKIP and LIMIT values; a zero limit means none.
func limitParams(limit, offset int) (int64, int64, error) {
	if limit < 0 || offset < 0 {
		return 0, 0, lore.Errorf(lore.EINVALID, "limit and offset must not be negative")
	}
	l := noLimit
	if limit > 0 {
		l = int64(limit)
	}
	return int64(offset), l, nil
}

// historyRow is a history event as stored; the statement fills in the
// memory's scope and the before/after texts where it knows them.
func historyRow(memoryID string, sc lore.Scope, ev lore.EventKind, actor, reason string, at time.Time) map[string]any {
	return map[string]any{
		"id": lore.NewID(), "memory_id": memoryID, "event": string(ev),
		"tenant_id": sc.TenantID, "user_id": sc.UserID, "agent_id": sc.AgentID, "run_id": sc.RunID,
		"actor": actor, "reason": reason, "at": at.UTC(),
	}
}

func toHistory(p props) lore.HistoryEvent {
	return lore.HistoryEvent{
		ID: p.str("id"), MemoryID: p.str("memory_id"), Scope: p.scope(), Event: lore.EventKind(p.str("event")),
		Before: p.str("before"), After: p.str("after"), Actor: p.str("actor"), Reason: p.str("reason"), At: p.time("at"),
	}
}

func toEpisode(p props) (*lore.Episode, error) {
	md, err := p.jsonMap("metadata")
	if err != nil {
		return nil, err
	}
	return &lore.Episode{
		ID: p.str("id"), Scope: p.scope(), Role: p.str("role"), Speaker: p.str("speaker"), Content: p.str("content"),
		OccurredAt: p.time("occurred_at"), CreatedAt: p.time("created_at"), UpdatedAt: p.time("updated_at"),
		SourceID: p.str("source_id"), Metadata: md, Verbatim: p.bool("verbatim"), ExpiresAt: p.timePtr("expires_at"),
	}, nil
}

func toEntity(p props) *lore.Entity {
	sc := p.scope()
	sc.RunID = ""
	return &lore.Entity{
		ID: p.str("id"), Scope: sc, Name: p.str("name"), NormalizedName: p.str("normalized_name"), Type: p.str("type"),
		Aliases: p.strs("aliases"), Mentions: p.int("mentions"), FirstSeen: p.time("first_seen"), LastSeen: p.time("last_seen"),
	}
}

func toFact(p props) (*lore.Fact, error) {
	md, err := p.jsonMap("metadata")
	if err != nil {
		return nil, err
	}
	return &lore.Fact{
		ID: p.str("id"), Scope: p.scope(), SubjectID: p.str("subject_id"), Subject: p.str("subject"),
		Predicate: p.str("predicate"), ObjectID: p.str("object_id"), Object: p.str("object"), Text: p.str("text"),
		Confidence: p.float("confidence"),
		ValidAt:    p.timePtr("valid_at"), InvalidAt: p.timePtr("invalid_at"),
		CreatedAt: p.time("created_at"), UpdatedAt: p.time("updated_at"), ExpiredAt: p.timePtr("expired_at"),
		Count: p.int("count"), FirstSeen: p.time("first_seen"), LastSeen: p.time("last_seen"),
		SourceEpisodeIDs: p.strs("source_episode_ids"), Extractor: p.str("extractor"), Metadata: md,
		ExpiresAt: p.timePtr("expires_at"),
	}, nil
}

func toJob(p props) (*lore.Job, error) {
	var events []lore.MemoryEvent
	if s := p.str("events"); s != "" {
		if err := json.Unmarshal([]byte(s), &events); err != nil {
			return nil, fmt.Errorf("decode job events: %w", err)
		}
	}
	return &lore.Job{
		ID: p.str("id"), Scope: p.scope(), Kind: p.str("kind"), EpisodeIDs: p.strs("episode_ids"),
		Status: lore.JobStatus(p.str("status")), Attempts: p.int("attempts"), MaxAttempts: p.int("max_attempts"),
		Error: p.str("error"), Events: events, NextRunAt: p.time("next_run_at"), LeaseUntil: p.timePtr("lease_until"),
		CreatedAt: p.time("created_at"), UpdatedAt: p.time("updated_at"), Owner: p.str("owner"),
		RequestID: p.str("request_id"),
	}, nil
}
