package ingest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// Problems the doctor reports for one index document.
const (
	ProblemMissing     = "missing from index" // the store holds it, the index does not
	ProblemOrphan      = "not in store"       // the index holds it, the store does not
	ProblemText        = "stale text"
	ProblemTime        = "stale time"
	ProblemNoVector    = "missing vector"
	ProblemStaleVector = "stale vector"
)

// Difference is one index document that does not match the store.
type Difference struct {
	Scope   lore.Scope
	ID      string
	Kind    lore.DocKind
	Problem string
}

// DoctorReport is what Doctor found (and repaired) in one scope.
type DoctorReport struct {
	Scope       lore.Scope
	StoreDocs   int // documents the store's records should have in the index
	IndexDocs   int // documents the index holds
	Differences []Difference
	Repaired    int // documents written or deleted by the repair
}

// DoctorOptions tune Doctor.
type DoctorOptions struct {
	// Repair writes what is missing or stale and deletes what the store
	// no longer holds.
	Repair bool
	// Vectors re-embeds every document and compares its vector with the
	// index's (slow); without it only a missing vector or one of the
	// wrong dimension is a difference.
	Vectors bool
}

// Doctor compares the index with the store for a scope: a user or agent
// scope, or a tenant alone (every user and agent of it, and documents of
// users the store no longer knows). The documents expected are those
// Reindex writes; an episode's text is compared line by line, in any order,
// since the sentences of its facts may have been added in another order.
// With opt.Repair the differences are fixed.
func (s *Service) Doctor(ctx context.Context, scope lore.Scope, opt DoctorOptions) (*DoctorReport, error) {
	if err := scope.ValidateErase(); err != nil {
		return nil, err
	}
	if scope.RunID != "" {
		return nil, lore.Errorf(lore.EINVALID, "the doctor works on a user, an agent or a tenant, not a run")
	}
	lister, ok := s.Index.(lore.IndexLister)
	if !ok {
		return nil, lore.Errorf(lore.EUNAVAILABLE, "this index cannot list its documents (lore.IndexLister); under encryption at rest the doctor does not run yet")
	}
	scopes := []lore.Scope{scope}
	if scope.UserID == "" && scope.AgentID == "" {
		dir, ok := s.Store.(lore.Directory)
		if !ok {
			return nil, lore.Errorf(lore.EUNAVAILABLE, "this store cannot list a tenant's users")
		}
		sums, err := dir.Scopes(ctx, scope.TenantID, math.MaxInt32)
		if err != nil {
			return nil, fmt.Errorf("ingest: doctor: list scopes: %w", err)
		}
		scopes = scopes[:0]
		for _, sum := range sums {
			sc := lore.Scope{TenantID: scope.TenantID, UserID: sum.Scope.UserID}
			if sc.UserID == "" {
				sc.AgentID = sum.Scope.AgentID
			}
			if !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
	}
	want := map[string]lore.IndexDoc{}
	for _, sc := range scopes {
		if err := s.expectedDocs(ctx, sc, want); err != nil {
			return nil, err
		}
	}
	rep := &DoctorReport{Scope: scope, StoreDocs: len(want)}
	var fix []lore.IndexDoc
	orphans := map[lore.Scope][]string{}
	seen := map[string]bool{}
	for cursor := ""; ; {
		page, next, err := lister.ListDocs(ctx, scope, cursor, 500)
		if err != nil {
			return nil, fmt.Errorf("ingest: doctor: list index: %w", err)
		}
		var vecs [][]float32
		if opt.Vectors && s.Embedder != nil {
			texts := make([]string, 0, len(page))
			for _, d := range page {
				if w, ok := want[d.ID]; ok {
					texts = append(texts, w.Text)
				}
			}
			if vecs, err = s.embedAll(ctx, texts); err != nil {
				return nil, err
			}
		}
		for _, have := range page {
			rep.IndexDocs++
			seen[have.ID] = true
			w, ok := want[have.ID]
			if !ok {
				rep.Differences = append(rep.Differences, Difference{Scope: have.Scope, ID: have.ID, Kind: have.Kind, Problem: ProblemOrphan})
				orphans[have.Scope] = append(orphans[have.Scope], have.ID)
				continue
			}
			var vec []float32
			if vecs != nil {
				vec, vecs = vecs[0], vecs[1:]
			}
			if p := s.docProblem(w, have, vec); p != "" {
				rep.Differences = append(rep.Differences, Difference{Scope: w.Scope, ID: w.ID, Kind: w.Kind, Problem: p})
				fix = append(fix, w)
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	for id, w := range want {
		if !seen[id] {
			rep.Differences = append(rep.Differences, Difference{Scope: w.Scope, ID: id, Kind: w.Kind, Problem: ProblemMissing})
			fix = append(fix, w)
		}
	}
	slices.SortFunc(rep.Differences, func(a, b Difference) int { return strings.Compare(a.ID, b.ID) })
	if !opt.Repair {
		return rep, nil
	}
	ctx = lore.WithoutFence(ctx)
	for sc, ids := range orphans {
		if err := s.Index.Delete(ctx, sc, ids); err != nil {
			return rep, fmt.Errorf("ingest: doctor: delete orphans: %w", err)
		}
		rep.Repaired += len(ids)
	}
	slices.SortFunc(fix, func(a, b lore.IndexDoc) int { return strings.Compare(a.ID, b.ID) })
	if err := s.upsert(ctx, fix); err != nil {
		return rep, fmt.Errorf("ingest: doctor: repair: %w", err)
	}
	rep.Repaired += len(fix)
	return rep, nil
}

// expectedDocs adds to want the index documents of a user's or agent's
// episodes and facts, as Reindex writes them (without vectors).
func (s *Service) expectedDocs(ctx context.Context, sc lore.Scope, want map[string]lore.IndexDoc) error {
	const page = 500
	for off := 0; ; off += page {
		facts, err := s.Store.FindFacts(ctx, lore.FactFilter{Scope: sc, IncludeInvalidated: true, Limit: page, Offset: off})
		if err != nil {
			return fmt.Errorf("ingest: doctor: facts: %w", err)
		}
		for _, d := range factDocs(facts) {
			want[d.ID] = d
		}
		if len(facts) < page {
			break
		}
	}
	bySource, err := s.factsBySource(ctx, sc, nil)
	if err != nil {
		return err
	}
	for off := 0; ; off += page {
		eps, err := s.Store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: sc, Limit: page, Offset: off})
		if err != nil {
			return fmt.Errorf("ingest: doctor: episodes: %w", err)
		}
		prev, err := s.previousTurns(ctx, eps)
		if err != nil {
			return err
		}
		n := len(eps)
		eps = slices.DeleteFunc(eps, func(ep *lore.Episode) bool { return ep.Content == "" })
		for _, d := range episodeDocs(eps, prev, bySource) {
			want[d.ID] = d
		}
		if n < page {
			return nil
		}
	}
}

// docProblem compares a document as the store says it should be with the
// index's; vec is want's text embedded anew, or nil.
func (s *Service) docProblem(want, have lore.IndexDoc, vec []float32) string {
	switch {
	case want.Scope != have.Scope:
		return ProblemText // written under another scope: rewrite it
	case !sameText(want, have):
		return ProblemText
	case want.Time.Sub(have.Time).Abs() > time.Millisecond:
		return ProblemTime
	}
	if s.Embedder == nil {
		return ""
	}
	if len(have.Vector) != s.Embedder.Info().Dim {
		return ProblemNoVector
	}
	if vec != nil && lore.Cosine(vec, have.Vector) < 0.999 {
		return ProblemStaleVector
	}
	return ""
}

// sameText compares texts; an episode's key lines (its turn, the sentences
// of its facts, the turn before) may come in any order.
func sameText(want, have lore.IndexDoc) bool {
	if want.Text == have.Text {
		return true
	}
	if want.Kind != lore.KindEpisode {
		return false
	}
	a, b := strings.Split(want.Text, "\n"), strings.Split(have.Text, "\n")
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}
