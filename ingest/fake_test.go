package ingest

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/lore-memory/lore"
)

// memStore is an in-memory lore.Store and lore.Index for unit tests, kept to
// the port contracts for the methods ingestion uses. Methods ingestion does
// not call report EINTERNAL rather than pretend.
type memStore struct {
	mu       sync.Mutex
	episodes []*lore.Episode
	entities []*lore.Entity
	facts    []*lore.Fact
	history  []lore.HistoryEvent
	jobs     []*lore.Job
	meta     map[string]string
}

// memIndex is an in-memory lore.Index with exact vector search.
type memIndex struct {
	mu   sync.Mutex
	docs map[string]lore.IndexDoc
}

var (
	_ lore.Store = (*memStore)(nil)
	_ lore.Index = (*memIndex)(nil)
)

func newMemStore() *memStore { return &memStore{meta: map[string]string{}} }

func newMemIndex() *memIndex { return &memIndex{docs: map[string]lore.IndexDoc{}} }

func unsupported(name string) error {
	return lore.Errorf(lore.EINTERNAL, "memStore.%s is not used by ingest tests", name)
}

func (m *memStore) hist(id string, scope lore.Scope, ev lore.EventKind, before, after, actor, reason string) {
	m.history = append(m.history, lore.HistoryEvent{ID: uuid.NewString(), MemoryID: id, Scope: scope, Event: ev, Before: before, After: after, Actor: actor, Reason: reason, At: time.Now()})
}

func (m *memStore) AddEpisodes(_ context.Context, eps []*lore.Episode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ep := range eps {
		if ep.ID == "" {
			ep.ID = uuid.NewString()
		}
		now := time.Now()
		ep.CreatedAt, ep.UpdatedAt = now, now
		c := *ep
		m.episodes = append(m.episodes, &c)
		m.hist(ep.ID, ep.Scope, lore.EventAdd, "", ep.Content, "api", "")
	}
	return nil
}

func (m *memStore) FindEpisodes(_ context.Context, f lore.EpisodeFilter) ([]*lore.Episode, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*lore.Episode
	for _, ep := range m.episodes {
		if !f.Scope.Contains(ep.Scope) || (len(f.IDs) > 0 && !slices.Contains(f.IDs, ep.ID)) {
			continue
		}
		c := *ep
		out = append(out, &c)
	}
	slices.SortStableFunc(out, func(a, b *lore.Episode) int { return a.OccurredAt.Compare(b.OccurredAt) })
	return page(out, f.Offset, f.Limit), nil
}

func (m *memStore) Speakers(context.Context, lore.Scope) ([]string, error) {
	return nil, unsupported("Speakers")
}

func page[T any](s []T, off, limit int) []T {
	if off >= len(s) {
		return nil
	}
	s = s[off:]
	if limit > 0 && limit < len(s) {
		s = s[:limit]
	}
	return s
}

func (m *memStore) UpdateEpisode(context.Context, lore.Scope, string, lore.EpisodeUpdate) (*lore.Episode, error) {
	return nil, unsupported("UpdateEpisode")
}

func (m *memStore) DeleteEpisode(_ context.Context, scope lore.Scope, id, actor string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.episodes)
	m.episodes = slices.DeleteFunc(m.episodes, func(ep *lore.Episode) bool { return ep.ID == id && scope.Contains(ep.Scope) })
	if len(m.episodes) == n {
		return lore.Errorf(lore.ENOTFOUND, "episode %q not found", id)
	}
	m.hist(id, scope, lore.EventDelete, "", "", actor, "")
	return nil
}

func (m *memStore) MergeEntity(_ context.Context, e *lore.Entity) (*lore.Entity, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ns := e.Scope.Namespace()
	norm := lore.NormalizeName(e.Name)
	if norm == "" {
		return nil, lore.Errorf(lore.EINVALID, "entity name is empty")
	}
	var have *lore.Entity
	for _, x := range m.entities {
		if x.Scope == ns && (x.NormalizedName == norm || slices.Contains(x.Aliases, norm)) {
			have = x
			break
		}
	}
	if have == nil {
		have = &lore.Entity{ID: uuid.NewString(), Scope: ns, Name: e.Name, NormalizedName: norm, Type: e.Type, FirstSeen: e.FirstSeen, LastSeen: e.LastSeen}
		m.entities = append(m.entities, have)
	} else {
		if e.FirstSeen.Before(have.FirstSeen) {
			have.FirstSeen = e.FirstSeen
		}
		if e.LastSeen.After(have.LastSeen) {
			have.LastSeen = e.LastSeen
		}
	}
	have.Mentions += max(e.Mentions, 1)
	for _, a := range e.Aliases {
		if a = lore.NormalizeName(a); a != "" && a != have.NormalizedName && !slices.Contains(have.Aliases, a) {
			have.Aliases = append(have.Aliases, a)
		}
	}
	c := *have
	c.Aliases = slices.Clone(have.Aliases)
	return &c, nil
}

func (m *memStore) FindEntities(_ context.Context, f lore.EntityFilter) ([]*lore.Entity, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := map[string]bool{}
	for _, n := range f.Names {
		names[lore.NormalizeName(n)] = true
	}
	var out []*lore.Entity
	for _, e := range m.entities {
		if !f.Scope.Namespace().Contains(e.Scope) || (len(f.IDs) > 0 && !slices.Contains(f.IDs, e.ID)) {
			continue
		}
		if len(names) > 0 && !names[e.NormalizedName] && !slices.ContainsFunc(e.Aliases, func(a string) bool { return names[a] }) {
			continue
		}
		c := *e
		c.Aliases = slices.Clone(e.Aliases)
		out = append(out, &c)
	}
	slices.SortFunc(out, func(a, b *lore.Entity) int {
		if a.Mentions != b.Mentions {
			return b.Mentions - a.Mentions
		}
		return strings.Compare(a.Name, b.Name)
	})
	return page(out, f.Offset, f.Limit), nil
}

func copyFact(f *lore.Fact) *lore.Fact {
	c := *f
	c.SourceEpisodeIDs = slices.Clone(f.SourceEpisodeIDs)
	c.Metadata = maps.Clone(f.Metadata)
	return &c
}

func (m *memStore) MergeFact(_ context.Context, f *lore.Fact, actor string) (*lore.Fact, lore.EventKind, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	ns := f.Scope.Namespace()
	for _, x := range m.facts {
		if f.Current(now) && x.Scope.Namespace() == ns && x.SubjectID == f.SubjectID && x.Predicate == f.Predicate && x.ObjectKey() == f.ObjectKey() && x.Current(now) {
			before := x.Text
			x.Count += max(f.Count, 1)
			if f.FirstSeen.Before(x.FirstSeen) {
				x.FirstSeen = f.FirstSeen
			}
			if f.LastSeen.After(x.LastSeen) {
				x.LastSeen = f.LastSeen
			}
			for _, id := range f.SourceEpisodeIDs {
				if !slices.Contains(x.SourceEpisodeIDs, id) {
					x.SourceEpisodeIDs = append(x.SourceEpisodeIDs, id)
				}
			}
			x.Confidence = max(x.Confidence, f.Confidence)
			x.UpdatedAt = now
			m.hist(x.ID, x.Scope, lore.EventMerge, before, x.Text, actor, "")
			return copyFact(x), lore.EventMerge, nil
		}
	}
	c := copyFact(f)
	c.ID = uuid.NewString()
	c.Count = max(c.Count, 1)
	c.CreatedAt, c.UpdatedAt = now, now
	m.facts = append(m.facts, c)
	m.hist(c.ID, c.Scope, lore.EventAdd, "", c.Text, actor, "")
	return copyFact(c), lore.EventAdd, nil
}

func (m *memStore) FindFacts(_ context.Context, f lore.FactFilter) ([]*lore.Fact, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	var out []*lore.Fact
	for _, x := range m.facts {
		switch {
		case !f.Scope.Contains(x.Scope),
			len(f.IDs) > 0 && !slices.Contains(f.IDs, x.ID),
			f.SubjectID != "" && x.SubjectID != f.SubjectID,
			f.ObjectID != "" && x.ObjectID != f.ObjectID,
			f.EntityID != "" && x.SubjectID != f.EntityID && x.ObjectID != f.EntityID,
			f.Predicate != "" && x.Predicate != f.Predicate,
			!f.IncludeInvalidated && !x.Current(now):
			continue
		}
		out = append(out, copyFact(x))
	}
	slices.SortFunc(out, func(a, b *lore.Fact) int {
		if c := b.LastSeen.Compare(a.LastSeen); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return page(out, f.Offset, f.Limit), nil
}

func (m *memStore) UpdateFact(_ context.Context, scope lore.Scope, id string, u lore.FactUpdate) (*lore.Fact, error) {
	if u.Triple != nil {
		return nil, unsupported("UpdateFact of a triple")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, x := range m.facts {
		if x.ID != id || !scope.Contains(x.Scope) {
			continue
		}
		before := x.Text
		if u.Text != nil {
			x.Text = *u.Text
		}
		if u.InvalidAt != nil {
			t := *u.InvalidAt
			x.InvalidAt = &t
		}
		if u.ExpiredAt != nil {
			t := *u.ExpiredAt
			x.ExpiredAt = &t
		}
		ev := u.Event
		if ev == "" {
			ev = lore.EventUpdate
		}
		m.hist(x.ID, x.Scope, ev, before, x.Text, u.Actor, u.Reason)
		return copyFact(x), nil
	}
	return nil, lore.Errorf(lore.ENOTFOUND, "fact %q not found", id)
}

func (m *memStore) DeleteFact(context.Context, lore.Scope, string, string) error {
	return unsupported("DeleteFact")
}

func (m *memStore) Neighborhood(context.Context, lore.NeighborhoodQuery) ([]lore.GraphHit, error) {
	return nil, unsupported("Neighborhood")
}

func (m *memStore) History(_ context.Context, scope lore.Scope, id string) ([]lore.HistoryEvent, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []lore.HistoryEvent
	for _, h := range m.history {
		if h.MemoryID == id && scope.Contains(h.Scope) {
			out = append(out, h)
		}
	}
	return out, nil
}

func (m *memStore) DeleteScope(context.Context, lore.Scope) (lore.DeleteStats, error) {
	return lore.DeleteStats{}, unsupported("DeleteScope")
}

func (m *memStore) Close() error { return nil }

func (m *memStore) EnqueueJob(_ context.Context, j *lore.Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j.ID == "" {
		j.ID = uuid.NewString()
	}
	c := *j
	m.jobs = append(m.jobs, &c)
	return nil
}

func (m *memStore) ClaimJob(_ context.Context, req lore.ClaimRequest) (*lore.Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.jobs {
		if slices.Contains(req.SkipTenants, j.Scope.TenantID) {
			continue
		}
		due := (j.Status == lore.JobQueued || j.Status == lore.JobRetrying) && !j.NextRunAt.After(req.Now)
		expired := j.Status == lore.JobRunning && j.LeaseUntil != nil && !j.LeaseUntil.After(req.Now)
		if !due && !expired {
			continue
		}
		lease := req.Now.Add(req.Lease)
		j.Status, j.LeaseUntil = lore.JobRunning, &lease
		j.Attempts++
		c := *j
		return &c, nil
	}
	return nil, lore.Errorf(lore.ENOTFOUND, "no job is due")
}

func (m *memStore) SaveJob(_ context.Context, j *lore.Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, x := range m.jobs {
		if x.ID == j.ID && x.Scope.TenantID == j.Scope.TenantID {
			c := *j
			m.jobs[i] = &c
			return nil
		}
	}
	return lore.Errorf(lore.ENOTFOUND, "job %q not found", j.ID)
}

func (m *memStore) GetJob(_ context.Context, tenant, id string) (*lore.Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, x := range m.jobs {
		if x.ID == id && x.Scope.TenantID == tenant {
			c := *x
			return &c, nil
		}
	}
	return nil, lore.Errorf(lore.ENOTFOUND, "job %q not found", id)
}

func (m *memStore) GetMeta(_ context.Context, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.meta[key]
	if !ok {
		return "", lore.Errorf(lore.ENOTFOUND, "meta %q not found", key)
	}
	return v, nil
}

func (m *memStore) SetMeta(_ context.Context, key, value string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.meta[key] = value
	return nil
}

func (m *memIndex) Upsert(_ context.Context, docs []lore.IndexDoc) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range docs {
		m.docs[d.ID] = d
	}
	return nil
}

func (m *memIndex) Delete(_ context.Context, _ lore.Scope, ids []string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range ids {
		delete(m.docs, id)
	}
	return nil
}

func (m *memIndex) SearchText(context.Context, lore.IndexQuery) ([]lore.IndexHit, error) {
	return nil, unsupported("SearchText")
}

// SearchVector ranks every document of the scope by cosine similarity.
func (m *memIndex) SearchVector(_ context.Context, q lore.IndexQuery) ([]lore.IndexHit, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []lore.IndexHit
	for _, d := range m.docs {
		if q.Scope.Contains(d.Scope) && d.Vector != nil && (len(q.Kinds) == 0 || slices.Contains(q.Kinds, d.Kind)) {
			out = append(out, lore.IndexHit{ID: d.ID, Kind: d.Kind, Score: lore.Cosine(q.Vector, d.Vector)})
		}
	}
	slices.SortFunc(out, func(a, b lore.IndexHit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return page(out, 0, q.Limit), nil
}

func (m *memIndex) doc(id string) (lore.IndexDoc, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.docs[id]
	return d, ok
}

func (m *memIndex) DeleteScope(context.Context, lore.Scope) error { return unsupported("DeleteScope") }

func (m *memIndex) Close() error { return nil }
