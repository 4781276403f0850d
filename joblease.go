package lore

import (
	"context"
	"time"
)

// JobLeases is what a queue offers beyond JobQueue so that crashes and
// bursts stay cheap: a restarted process takes back the jobs it held, and
// an add can see how deep its tenant's queue already is. Every Store
// implements it (storetest checks).
type JobLeases interface {
	// ReleaseJobs makes every running job claimed by owner, except those
	// whose ids are in keep, due again at now, without spending an
	// attempt: nobody is working on them, either because the process that
	// held them restarted or because it lost the reply to a claim or a
	// save. It returns how many it released. An empty owner releases
	// nothing.
	ReleaseJobs(ctx context.Context, owner string, now time.Time, keep ...string) (int, error)
	// PendingJobs counts a tenant's jobs that are queued, retrying or
	// running.
	PendingJobs(ctx context.Context, tenantID string) (int, error)
}
