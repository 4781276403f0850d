package api

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// mem0Memory is a fact or a verbatim episode in the shape mem0's platform
// API answers with, and Lore's own record of it under "lore". Scope fields
// mem0 has and Lore lacks (app_id) are null; the run appears as run_id
// (search) and session_id (get), as mem0 names it in each.
type mem0Memory struct {
	ID             string         `json:"id"`
	Memory         string         `json:"memory"`
	Hash           string         `json:"hash"`
	UserID         *string        `json:"user_id"`
	AgentID        *string        `json:"agent_id"`
	AppID          *string        `json:"app_id"`
	RunID          *string        `json:"run_id"`
	SessionID      *string        `json:"session_id"`
	Metadata       map[string]any `json:"metadata"`
	Categories     []string       `json:"categories"`
	CreatedAt      time.Time      `json:"created_at"`
	UpdatedAt      time.Time      `json:"updated_at"`
	ExpirationDate *string        `json:"expiration_date"`
	Immutable      bool           `json:"immutable"`
	Score          *float64       `json:"score,omitempty"`
	Lore           mem0LoreInfo   `json:"lore"`
}

// mem0LoreInfo is what Lore knows of a memory beyond mem0's fields.
type mem0LoreInfo struct {
	Type lore.DocKind `json:"type"`
	// Current is false for a fact whose validity is closed: mem0 calls it
	// expired, and shows it only with show_expired.
	Current          bool               `json:"current"`
	Subject          string             `json:"subject,omitempty"`
	Predicate        string             `json:"predicate,omitempty"`
	Object           string             `json:"object,omitempty"`
	ValidAt          *time.Time         `json:"valid_at,omitempty"`
	InvalidAt        *time.Time         `json:"invalid_at,omitempty"`
	ExpiredAt        *time.Time         `json:"expired_at,omitempty"`
	Count            int                `json:"count,omitempty"`
	SourceEpisodeIDs []string           `json:"source_episode_ids,omitempty"`
	ScoreDetails     map[string]float64 `json:"score_details,omitempty"`
}

// nonEmpty returns a pointer to s, or nil for "".
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// contentHash is mem0's memory hash: the MD5 of the text, an identifier
// of content, not a security measure.
func contentHash(text string) string {
	sum := md5.Sum([]byte(text))
	return hex.EncodeToString(sum[:])
}

func mem0Base(id, text string, sc lore.Scope, md map[string]any, created, updated time.Time) mem0Memory {
	return mem0Memory{
		ID: id, Memory: text, Hash: contentHash(text),
		UserID: nonEmpty(sc.UserID), AgentID: nonEmpty(sc.AgentID), RunID: nonEmpty(sc.RunID), SessionID: nonEmpty(sc.RunID),
		Metadata: md, CreatedAt: created, UpdatedAt: updated,
	}
}

// mem0FromFact maps a fact. Its expiration date is the day its validity
// closed (invalid_at, else expired_at).
func mem0FromFact(f *lore.Fact, now time.Time) mem0Memory {
	m := mem0Base(f.ID, f.Text, f.Scope, f.Metadata, f.CreatedAt, f.UpdatedAt)
	end := f.InvalidAt
	if end == nil {
		end = f.ExpiredAt
	}
	if end != nil {
		d := end.UTC().Format(time.DateOnly)
		m.ExpirationDate = &d
	}
	m.Lore = mem0LoreInfo{
		Type: lore.KindFact, Current: f.Current(now), Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
		ValidAt: f.ValidAt, InvalidAt: f.InvalidAt, ExpiredAt: f.ExpiredAt, Count: f.Count, SourceEpisodeIDs: f.SourceEpisodeIDs,
	}
	return m
}

// mem0FromEpisode maps an episode: a verbatim one is a memory of its own.
func mem0FromEpisode(ep *lore.Episode) mem0Memory {
	m := mem0Base(ep.ID, ep.Content, ep.Scope, ep.Metadata, ep.CreatedAt, ep.UpdatedAt)
	m.Lore = mem0LoreInfo{Type: lore.KindEpisode, Current: true}
	return m
}

// mem0FromResult maps a search result with its score.
func mem0FromResult(r retrieve.Result, now time.Time) mem0Memory {
	var m mem0Memory
	if r.Fact != nil {
		m = mem0FromFact(r.Fact, now)
	} else {
		m = mem0FromEpisode(r.Episode)
	}
	score := r.Score
	m.Score = &score
	m.Lore.ScoreDetails = r.ScoreDetails
	return m
}

// mem0Relation is a fact's triple as mem0's graph memory shows a relation:
// "destination" in search answers, "target" in listings.
type mem0Relation struct {
	Source       string `json:"source"`
	Relationship string `json:"relationship"`
	Destination  string `json:"destination,omitempty"`
	Target       string `json:"target,omitempty"`
}

// relations returns the triples of the fact memories, in order.
func relations(ms []mem0Memory, listing bool) []mem0Relation {
	out := []mem0Relation{}
	for _, m := range ms {
		if m.Lore.Type != lore.KindFact || m.Lore.Predicate == "" {
			continue
		}
		r := mem0Relation{Source: m.Lore.Subject, Relationship: m.Lore.Predicate}
		if listing {
			r.Target = m.Lore.Object
		} else {
			r.Destination = m.Lore.Object
		}
		out = append(out, r)
	}
	return out
}

// mem0Event is an add result in mem0's shape.
type mem0Event struct {
	ID     string         `json:"id"`
	Memory string         `json:"memory"`
	Event  string         `json:"event"`
	Data   map[string]any `json:"data"`
	// LoreEvent is Lore's own event kind (MERGE, INVALIDATE…) and Type the
	// memory's kind.
	LoreEvent lore.EventKind `json:"lore_event"`
	Type      lore.DocKind   `json:"type"`
	// InvalidAt marks a fact stored as no longer true (lore.MemoryEvent).
	InvalidAt *time.Time `json:"invalid_at,omitempty"`
}

// mem0EventKind maps Lore's event kinds onto mem0's ADD, UPDATE, DELETE
// and NONE: a merge only counts a repeat (NONE); an invalidation closes a
// fact's validity, which mem0 shows as an UPDATE giving it an expiration.
func mem0EventKind(k lore.EventKind) string {
	switch k {
	case lore.EventAdd, lore.EventUpdate, lore.EventDelete, lore.EventNone:
		return string(k)
	case lore.EventMerge:
		return string(lore.EventNone)
	default:
		return string(lore.EventUpdate)
	}
}

func mem0Events(evs []lore.MemoryEvent) []mem0Event {
	out := make([]mem0Event, 0, len(evs))
	for _, e := range evs {
		out = append(out, mem0Event{ID: e.ID, Memory: e.Memory, Event: mem0EventKind(e.Event), Data: map[string]any{"memory": e.Memory}, LoreEvent: e.Event, Type: e.Type, InvalidAt: e.InvalidAt})
	}
	return out
}

// mem0HistoryEntry is one history event in mem0's shape.
type mem0HistoryEntry struct {
	ID         string         `json:"id"`
	MemoryID   string         `json:"memory_id"`
	Input      []any          `json:"input"`
	OldMemory  *string        `json:"old_memory"`
	NewMemory  *string        `json:"new_memory"`
	UserID     *string        `json:"user_id"`
	AgentID    *string        `json:"agent_id"`
	AppID      *string        `json:"app_id"`
	SessionID  *string        `json:"session_id"`
	Categories []string       `json:"categories"`
	Event      string         `json:"event"`
	Metadata   map[string]any `json:"metadata"`
	CreatedAt  time.Time      `json:"created_at"`
	UpdatedAt  time.Time      `json:"updated_at"`
	LoreEvent  lore.EventKind `json:"lore_event"`
	Actor      string         `json:"actor,omitempty"`
	Reason     string         `json:"reason,omitempty"`
}

// mem0History maps history events; Lore's MERGE and INVALIDATE are
// UPDATEs to mem0 (lore_event keeps the kind).
func mem0History(evs []lore.HistoryEvent) []mem0HistoryEntry {
	out := make([]mem0HistoryEntry, 0, len(evs))
	for _, e := range evs {
		kind := string(e.Event)
		if e.Event != lore.EventAdd && e.Event != lore.EventDelete {
			kind = string(lore.EventUpdate)
		}
		out = append(out, mem0HistoryEntry{
			ID: e.ID, MemoryID: e.MemoryID, Input: []any{}, OldMemory: nonEmpty(e.Before), NewMemory: nonEmpty(e.After),
			UserID: nonEmpty(e.Scope.UserID), AgentID: nonEmpty(e.Scope.AgentID), SessionID: nonEmpty(e.Scope.RunID),
			Event: kind, CreatedAt: e.At, UpdatedAt: e.At, LoreEvent: e.Event, Actor: e.Actor, Reason: e.Reason,
		})
	}
	return out
}

// pickFields keeps only the named fields of each memory (mem0's "fields"),
// or returns the memories as they are when fields is empty.
func pickFields(ms []mem0Memory, fields []string) (any, error) {
	if len(fields) == 0 {
		return ms, nil
	}
	out := make([]map[string]json.RawMessage, 0, len(ms))
	for _, m := range ms {
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		var all map[string]json.RawMessage
		if err := json.Unmarshal(raw, &all); err != nil {
			return nil, err
		}
		kept := map[string]json.RawMessage{}
		for _, f := range fields {
			if v, ok := all[f]; ok {
				kept[f] = v
			}
		}
		out = append(out, kept)
	}
	return out, nil
}

// mem0ErrorBody is Lore's error shape with mem0's "detail" beside it: the
// mem0 SDK shows detail in its exceptions.
type mem0ErrorBody struct {
	ErrorBody
	Detail string `json:"detail"`
}

// mem0Error answers err like writeError, with detail for mem0 clients.
func (s *Server) mem0Error(c *gin.Context, err error) {
	status, body := s.errorBody(c, err)
	c.AbortWithStatusJSON(status, mem0ErrorBody{ErrorBody: body, Detail: body.Error.Message})
}
