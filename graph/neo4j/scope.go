package neo4j

import (
	"context"

	"github.com/lore-memory/lore"
)

// DeleteScope removes every episode, entity, fact, job and history event
// the scope Contains, in batches of 5,000 nodes per transaction so
// that deleting a large user never needs one huge transaction. It records
// the erasure first: from then on, until the last batch is gone and after,
// fenced writes covered by the scope are refused (see CheckFence), so a
// job running meanwhile cannot write behind the batches.
func (s *Store) DeleteScope(ctx context.Context, scope lore.Scope) (lore.DeleteStats, error) {
	var stats lore.DeleteStats
	if err := scope.ValidateErase(); err != nil {
		return stats, err
	}
	seq, err := s.recordErasure(ctx, scope)
	if err != nil {
		return stats, err
	}
	sh := scopeShape(scope)
	params := scopeParams(scope)
	params["batch"] = int64(s.deleteBatch)
	for _, step := range []struct {
		stmt  string
		count *int
	}{
		{"DeleteScopeFacts", &stats.Facts},
		{"DeleteScopeEntities", &stats.Entities},
		{"DeleteScopeEpisodes", &stats.Episodes},
		{"DeleteScopeSpeakers", nil},
		{"DeleteScopeJobs", &stats.Jobs},
		{"DeleteScopeHistory", nil},
		// The audit log keeps its records; only whom a pseudonym stands for goes.
		{"DeleteScopeAuditPseudonyms", nil},
	} {
		for {
			n, err := write(ctx, s, "delete scope", func(r txRunner) (int64, error) {
				recs, err := r.run(step.stmt, sh, params)
				if err != nil {
					return 0, err
				}
				n, _ := recs[0].Get("deleted")
				count, _ := n.(int64)
				return count, nil
			})
			if err != nil {
				return stats, err
			}
			if step.count != nil {
				*step.count += int(n)
			}
			if n < int64(s.deleteBatch) {
				break
			}
		}
	}
	if err := s.deleteScopeProfile(ctx, scope); err != nil {
		return stats, err
	}
	if err := s.deleteScopeQueryLog(ctx, scope); err != nil { // querylog.go
		return stats, err
	}
	// The user node goes with the whole user, not with one agent or run;
	// every user node of a tenant with the tenant.
	stmt := ""
	switch {
	case scope.UserID != "" && scope.AgentID == "" && scope.RunID == "":
		stmt = "DeleteScopeUser"
	case scope.UserID == "" && scope.AgentID == "" && scope.RunID == "":
		stmt = "DeleteTenantUsers"
	}
	if stmt != "" {
		_, err := write(ctx, s, "delete scope", func(r txRunner) (struct{}, error) {
			_, err := r.run(stmt, shape{}, params)
			if err == nil && stmt == "DeleteTenantUsers" {
				_, err = r.run("DeleteTenantJobLock", shape{}, params)
			}
			return struct{}{}, err
		})
		if err != nil {
			return stats, err
		}
	}
	if _, err := s.deleteFeedback(ctx, scope, true); err != nil { // feedback.go
		return stats, err
	}
	return stats, s.finishErasure(ctx, scope, seq)
}
