// Package export writes everything Lore holds about a user as JSONL, and
// reads such a file back into a store: the user's right of access, and a
// way to move a user between servers.
//
// A file is one JSON object per line. The first is the header
// {"type":"lore.export","version":1,"scope":…,"exported_at":…}; then every
// episode ({"type":"episode","episode":…,"history":[…]}), every entity
// ({"type":"entity","entity":…}), every fact, invalidated ones included
// ({"type":"fact","fact":…,"history":[…]}), the user's profile when the
// store holds profiles ({"type":"profile","profile":…}, replaced entries
// first, with their replaced_at); and last
// {"type":"end","counts":…}, so that a reader can tell a complete file from
// a cut one. Records hold the store's own JSON shapes (lore.Episode,
// lore.Entity, lore.Fact, lore.HistoryEvent). A store that keeps ranking
// signals (lore.FeedbackStore) adds, before the end, the user's verdicts
// ({"type":"verdict","verdict":…}), usage counts ({"type":"usage",…}) and
// answers-that-worked rows ({"type":"success",…}). A store that keeps query
// logs (lore.QueryLogStore) adds the user's logged searches that have not
// expired ({"type":"query","query":…}) after the profile. Given the
// audit log's pseudonym for the user (WithAuditPseudonym), the file names
// it ({"type":"audit_subject",…}), and an import that leaves the user
// where they were restores the mapping (audit.go).
package export

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// Version is the format version this package writes and reads.
const Version = 1

// Record types.
const (
	TypeHeader  = "lore.export"
	TypeEpisode = "episode"
	TypeEntity  = "entity"
	TypeFact    = "fact"
	TypeProfile = "profile"
	TypeEnd     = "end"
	TypeVerdict = "verdict"
	TypeUsage   = "usage"
	TypeSuccess = "success"
	TypeQuery   = "query"
)

// Record is one line of an export.
type Record struct {
	Type       string              `json:"type"`
	Version    int                 `json:"version,omitempty"`
	Scope      *lore.Scope         `json:"scope,omitempty"`
	ExportedAt *time.Time          `json:"exported_at,omitempty"`
	Episode    *lore.Episode       `json:"episode,omitempty"`
	Entity     *lore.Entity        `json:"entity,omitempty"`
	Fact       *lore.Fact          `json:"fact,omitempty"`
	History    []lore.HistoryEvent `json:"history,omitempty"`
	Profile    *lore.ProfileEntry  `json:"profile,omitempty"`
	Counts     *Counts             `json:"counts,omitempty"`
	Verdict    *lore.Verdict       `json:"verdict,omitempty"`
	Usage      *lore.UsageRecord   `json:"usage,omitempty"`
	Success    *lore.SuccessRecord `json:"success,omitempty"`
	Query      *lore.QueryLogEntry `json:"query,omitempty"`
	// AuditSubject is the pseudonym the audit log names the user by
	// (audit.go).
	AuditSubject *AuditSubject `json:"audit_subject,omitempty"`
}

// Counts is how many records of each kind an export holds.
type Counts struct {
	Episodes int `json:"episodes"`
	Entities int `json:"entities"`
	Facts    int `json:"facts"`
	Profile  int `json:"profile,omitempty"`
	// The ranking signals' records, when the store keeps them.
	Verdicts  int `json:"verdicts,omitempty"`
	Usage     int `json:"usage,omitempty"`
	Successes int `json:"successes,omitempty"`
	Queries   int `json:"queries,omitempty"` // logged searches (query log)
	// AuditSubjects counts the audit pseudonym records (audit.go).
	AuditSubjects int `json:"audit_subjects,omitempty"`
}

// page is how many records one store read returns.
const page = 500

// Write writes everything the store holds in scope to w, as it reads it,
// page by page: episodes and facts with their history, and entities. A
// failure part-way leaves the file without its end record.
func Write(ctx context.Context, w io.Writer, st lore.GraphStore, scope lore.Scope, now time.Time, opts ...Option) (Counts, error) {
	var n Counts
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if err := scope.Validate(); err != nil {
		return n, err
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	at := now.UTC()
	if err := enc.Encode(Record{Type: TypeHeader, Version: Version, Scope: &scope, ExportedAt: &at}); err != nil {
		return n, fmt.Errorf("export: write: %w", err)
	}
	history := func(id string) ([]lore.HistoryEvent, error) {
		h, err := st.History(ctx, scope, id)
		if err != nil {
			return nil, fmt.Errorf("export: history of %s: %w", id, err)
		}
		return h, nil
	}
	// flush hands a page to w, so that a large export streams.
	flush := func() error {
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
		if f, ok := w.(interface{ Flush() }); ok {
			f.Flush()
		}
		return nil
	}
	for off := 0; ; off += page {
		eps, err := st.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope, Limit: page, Offset: off})
		if err != nil {
			return n, fmt.Errorf("export: episodes: %w", err)
		}
		for _, ep := range eps {
			h, err := history(ep.ID)
			if err != nil {
				return n, err
			}
			if err := enc.Encode(Record{Type: TypeEpisode, Episode: ep, History: h}); err != nil {
				return n, fmt.Errorf("export: write: %w", err)
			}
			n.Episodes++
		}
		if err := flush(); err != nil {
			return n, err
		}
		if len(eps) < page {
			break
		}
	}
	for off := 0; ; off += page {
		ents, err := st.FindEntities(ctx, lore.EntityFilter{Scope: scope, Limit: page, Offset: off})
		if err != nil {
			return n, fmt.Errorf("export: entities: %w", err)
		}
		for _, e := range ents {
			if err := enc.Encode(Record{Type: TypeEntity, Entity: e}); err != nil {
				return n, fmt.Errorf("export: write: %w", err)
			}
			n.Entities++
		}
		if err := flush(); err != nil {
			return n, err
		}
		if len(ents) < page {
			break
		}
	}
	for off := 0; ; off += page {
		facts, err := st.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: true, Limit: page, Offset: off})
		if err != nil {
			return n, fmt.Errorf("export: facts: %w", err)
		}
		for _, f := range facts {
			h, err := history(f.ID)
			if err != nil {
				return n, err
			}
			if err := enc.Encode(Record{Type: TypeFact, Fact: f, History: h}); err != nil {
				return n, fmt.Errorf("export: write: %w", err)
			}
			n.Facts++
		}
		if err := flush(); err != nil {
			return n, err
		}
		if len(facts) < page {
			break
		}
	}
	if err := writeProfile(ctx, enc, st, scope, &n); err != nil {
		return n, err
	}
	if err := writeQueryLog(ctx, enc, st, scope, at, &n); err != nil { // profile.go
		return n, err
	}
	if fs, ok := st.(lore.FeedbackStore); ok {
		if err := writeSignals(ctx, enc, fs, scope, &n); err != nil {
			return n, err
		}
	}
	if err := writeAuditSubject(enc, o, scope, &n); err != nil { // audit.go
		return n, err
	}
	if err := enc.Encode(Record{Type: TypeEnd, Counts: &n}); err != nil {
		return n, fmt.Errorf("export: write: %w", err)
	}
	return n, flush()
}

// writeSignals writes the scope's verdicts, usage counts and success rows.
func writeSignals(ctx context.Context, enc *json.Encoder, fs lore.FeedbackStore, scope lore.Scope, n *Counts) error {
	scope = scope.Namespace()
	vs, err := fs.Verdicts(ctx, scope)
	if err != nil {
		return fmt.Errorf("export: verdicts: %w", err)
	}
	for i := range vs {
		if err := enc.Encode(Record{Type: TypeVerdict, Verdict: &vs[i]}); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
		n.Verdicts++
	}
	us, err := fs.Usage(ctx, scope)
	if err != nil {
		return fmt.Errorf("export: usage: %w", err)
	}
	for i := range us {
		if err := enc.Encode(Record{Type: TypeUsage, Usage: &us[i]}); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
		n.Usage++
	}
	ss, err := fs.Successes(ctx, scope)
	if err != nil {
		return fmt.Errorf("export: successes: %w", err)
	}
	for i := range ss {
		if err := enc.Encode(Record{Type: TypeSuccess, Success: &ss[i]}); err != nil {
			return fmt.Errorf("export: write: %w", err)
		}
		n.Successes++
	}
	return nil
}

// Dump is an export read back: its header's scope and its records.
type Dump struct {
	Scope     lore.Scope
	Episodes  []*lore.Episode
	Entities  []*lore.Entity
	Facts     []*lore.Fact
	Profile   []lore.ProfileEntry // replaced entries (ReplacedAt set) and current ones
	Verdicts  []lore.Verdict
	Usage     []lore.UsageRecord
	Successes []lore.SuccessRecord
	Queries   []lore.QueryLogEntry
	// AuditSubjects are the audit pseudonyms the export names (audit.go).
	AuditSubjects []AuditSubject
}

// IsExport reports whether data starts like an export (its header line).
func IsExport(data []byte) bool {
	line, _, _ := bufio.NewReader(bytes.NewReader(data)).ReadLine()
	var r Record
	return json.Unmarshal(line, &r) == nil && r.Type == TypeHeader
}

// Read reads a whole export and checks it: a header of this version first,
// an end record last whose counts match. It returns EINVALID naming the line
// for anything else.
func Read(r io.Reader) (*Dump, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
	var d Dump
	line, ended := 0, false
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		if ended {
			return nil, lore.Errorf(lore.EINVALID, "export line %d: a record after the end record", line)
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, lore.Errorf(lore.EINVALID, "export line %d: %v", line, err)
		}
		if line == 1 {
			if rec.Type != TypeHeader || rec.Scope == nil {
				return nil, lore.Errorf(lore.EINVALID, "export line 1: not a Lore export header")
			}
			if rec.Version != Version {
				return nil, lore.Errorf(lore.EINVALID, "export version %d; this Lore reads version %d", rec.Version, Version)
			}
			d.Scope = *rec.Scope
			continue
		}
		switch {
		case rec.Type == TypeEpisode && rec.Episode != nil:
			d.Episodes = append(d.Episodes, rec.Episode)
		case rec.Type == TypeEntity && rec.Entity != nil:
			d.Entities = append(d.Entities, rec.Entity)
		case rec.Type == TypeFact && rec.Fact != nil:
			d.Facts = append(d.Facts, rec.Fact)
		case rec.Type == TypeProfile && rec.Profile != nil:
			d.Profile = append(d.Profile, *rec.Profile)
		case rec.Type == TypeVerdict && rec.Verdict != nil:
			d.Verdicts = append(d.Verdicts, *rec.Verdict)
		case rec.Type == TypeUsage && rec.Usage != nil:
			d.Usage = append(d.Usage, *rec.Usage)
		case rec.Type == TypeSuccess && rec.Success != nil:
			d.Successes = append(d.Successes, *rec.Success)
		case rec.Type == TypeQuery && rec.Query != nil:
			d.Queries = append(d.Queries, *rec.Query)
		case rec.Type == TypeAuditSubject && rec.AuditSubject != nil:
			if err := checkAuditSubject(d.Scope, *rec.AuditSubject); err != nil {
				return nil, lore.Errorf(lore.EINVALID, "export line %d: %s", line, lore.ErrorMessage(err))
			}
			d.AuditSubjects = append(d.AuditSubjects, *rec.AuditSubject)
		case rec.Type == TypeEnd && rec.Counts != nil:
			want := Counts{Episodes: len(d.Episodes), Entities: len(d.Entities), Facts: len(d.Facts), Profile: len(d.Profile),
				Verdicts: len(d.Verdicts), Usage: len(d.Usage), Successes: len(d.Successes), Queries: len(d.Queries),
				AuditSubjects: len(d.AuditSubjects)}
			if *rec.Counts != want {
				return nil, lore.Errorf(lore.EINVALID, "export line %d: the end record counts %+v, the file holds %+v", line, *rec.Counts, want)
			}
			ended = true
		default:
			return nil, lore.Errorf(lore.EINVALID, "export line %d: unknown or empty record of type %q", line, rec.Type)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "export line %d: %v", line+1, err)
	}
	if line == 0 {
		return nil, lore.Errorf(lore.EINVALID, "export is empty")
	}
	if !ended {
		return nil, lore.Errorf(lore.EINVALID, "export has no end record: the file was cut short")
	}
	return &d, nil
}

// Import writes a dump into st, every record moved into the scope remap
// returns for it (nil keeps the scopes). Episodes keep their ids, so facts
// keep their sources (unless remap moves them: then they get new ids and
// facts follow); entities and facts get new ids, facts pointing at
// their entities' new ones. Facts no longer current go in first, so that a
// current fact never merges into an invalidated one. History restarts with
// one ADD by actor "import". Into a store that keeps ranking signals, the
// verdicts are replayed on the memories' new ids, each moving relevance by
// the delta it recorded (so the adjustments come out as exported, whatever
// the server's rule), which rebuilds the success rows; usage counts are
// added. Verdict times restart at the import, as history does. The index is
// not written: re-index the scope afterwards (ingest.Service.Reindex). It
// returns what it wrote.
func Import(ctx context.Context, st lore.GraphStore, d *Dump, remap func(lore.Scope) lore.Scope, now time.Time) (Counts, error) {
	var n Counts
	if remap == nil {
		remap = func(s lore.Scope) lore.Scope { return s }
	}
	const batch = 200
	// An episode keeps its id unless it moves to another scope: moved to
	// another user of the same server, it would collide with itself.
	epIDs := make(map[string]string, len(d.Episodes))
	for start := 0; start < len(d.Episodes); start += batch {
		eps := d.Episodes[start:min(start+batch, len(d.Episodes))]
		for i, ep := range eps {
			in := *ep
			if in.Scope = remap(ep.Scope); in.Scope != ep.Scope {
				in.ID = uuid.NewString()
			}
			epIDs[ep.ID] = in.ID
			eps[i] = &in
		}
		if err := st.AddEpisodes(ctx, eps); err != nil {
			return n, fmt.Errorf("export: import episodes: %w", err)
		}
		n.Episodes += len(eps)
	}
	ids := make(map[string]string, len(d.Entities))
	for _, e := range d.Entities {
		in := *e
		in.ID, in.Scope = "", remap(e.Scope)
		got, err := st.MergeEntity(ctx, &in)
		if err != nil {
			return n, fmt.Errorf("export: import entity %q: %w", e.Name, err)
		}
		ids[e.ID] = got.ID
		n.Entities++
	}
	var current []*lore.Fact
	factIDs := make(map[string]string, len(d.Facts))
	add := func(f *lore.Fact) error {
		in := *f
		in.ID, in.Scope = "", remap(f.Scope)
		in.SourceEpisodeIDs = make([]string, 0, len(f.SourceEpisodeIDs))
		for _, id := range f.SourceEpisodeIDs {
			// A source the export does not hold (deleted since) stays as it was.
			if to, ok := epIDs[id]; ok {
				id = to
			}
			in.SourceEpisodeIDs = append(in.SourceEpisodeIDs, id)
		}
		var ok bool
		if in.SubjectID, ok = ids[f.SubjectID]; !ok {
			return lore.Errorf(lore.EINVALID, "fact %s names subject %s, which the export does not hold", f.ID, f.SubjectID)
		}
		if f.ObjectID != "" {
			if in.ObjectID, ok = ids[f.ObjectID]; !ok {
				return lore.Errorf(lore.EINVALID, "fact %s names object %s, which the export does not hold", f.ID, f.ObjectID)
			}
		}
		got, _, err := st.MergeFact(ctx, &in, "import")
		if err != nil {
			return fmt.Errorf("export: import fact %q: %w", f.Text, err)
		}
		factIDs[f.ID] = got.ID
		n.Facts++
		return nil
	}
	for _, f := range d.Facts {
		if f.Current(now) {
			current = append(current, f)
			continue
		}
		if err := add(f); err != nil {
			return n, err
		}
	}
	for _, f := range current {
		if err := add(f); err != nil {
			return n, err
		}
	}
	if err := importProfile(ctx, st, d, remap, epIDs, &n); err != nil {
		return n, err
	}
	if err := importQueryLog(ctx, st, d, remap, &n); err != nil { // profile.go
		return n, err
	}
	if err := importAuditSubjects(ctx, st, d, remap, &n); err != nil { // audit.go
		return n, err
	}
	fs, ok := st.(lore.FeedbackStore)
	if !ok || len(d.Verdicts)+len(d.Usage) == 0 {
		return n, nil
	}
	memID := func(id string) (string, bool) {
		if to, ok := factIDs[id]; ok {
			return to, true
		}
		to, ok := epIDs[id]
		return to, ok
	}
	// A replayed helpful verdict counts as a citation again, so the usage
	// records' citations are added less those.
	replayedCites := map[string]int{}
	for _, v := range d.Verdicts {
		to, ok := memID(v.MemoryID)
		if !ok {
			continue // a verdict on a memory deleted since
		}
		in := lore.Verdict{Scope: remap(v.Scope), MemoryID: to, Helpful: v.Helpful, QueryHash: v.QueryHash}
		// A rule whose step is the recorded delta, with bounds that never
		// cut it, replays the verdict exactly.
		rule := lore.FeedbackRule{HelpfulStep: max(v.Delta, 0), UnhelpfulStep: min(v.Delta, 0), MaxBoost: math.MaxFloat64, MaxPenalty: -1 + 1e-9}
		if _, err := fs.RecordVerdict(ctx, &in, rule); err != nil {
			return n, fmt.Errorf("export: import verdict: %w", err)
		}
		if v.Helpful {
			replayedCites[to]++
		}
		n.Verdicts++
	}
	var usage []lore.UsageRecord
	for _, u := range d.Usage {
		if to, ok := memID(u.MemoryID); ok {
			u.Scope, u.MemoryID = remap(u.Scope), to
			u.Cited = max(u.Cited-replayedCites[to], 0)
			usage = append(usage, u)
		}
	}
	if err := fs.RecordUsage(ctx, usage); err != nil {
		return n, fmt.Errorf("export: import usage: %w", err)
	}
	n.Usage = len(usage)
	return n, nil
}
