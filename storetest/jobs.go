package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/lore-memory/lore"
)

// jobEpoch returns a random second-aligned instant in the first half of the
// 20th century. The queue is shared by every tenant, so job tests claim at
// such an instant: jobs that other subtests enqueue (dated 2024) are not due
// then. The job subtests run one after another, and claimOwn steps over
// leftovers of earlier, interrupted runs against a shared server. Two
// processes must not run the job subtests against one queue at once.
func jobEpoch() time.Time {
	return time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rand.Int64N(50*365*24*3600)) * time.Second)
}

// claimOwn claims the next due job of tenant, stepping over jobs of other
// tenants that a shared queue may hold (they are added to SkipTenants). It
// returns ENOTFOUND when none of the tenant's jobs is due.
func claimOwn(ctx context.Context, q lore.JobQueue, tenant string, req lore.ClaimRequest) (*lore.Job, error) {
	req.SkipTenants = slices.Clone(req.SkipTenants)
	for range 1000 {
		job, err := q.ClaimJob(ctx, req)
		if err != nil || job.Scope.TenantID == tenant {
			return job, err
		}
		req.SkipTenants = append(req.SkipTenants, job.Scope.TenantID)
	}
	return nil, lore.Errorf(lore.EINTERNAL, "claimOwn: more than 1000 foreign tenants in the queue")
}

func runJobs(s suite, st lore.Store) {
	newJob := func(sc lore.Scope, created, next time.Time) *lore.Job {
		return &lore.Job{Scope: sc, Kind: "extract", EpisodeIDs: []string{uuid.NewString()}, Status: lore.JobQueued,
			MaxAttempts: 3, NextRunAt: next, CreatedAt: created}
	}

	s.serial("Jobs", func(run func(string, func(*testing.T))) {
		run("EnqueueSaveGet", func(t *testing.T) {
			ctx := ctxFor(t)
			sc := userScope()
			cleanupStore(t, st, sc)
			t0 := jobEpoch()
			job := newJob(sc, t0, t0)
			must(t, "EnqueueJob", st.EnqueueJob(ctx, job))
			if job.ID == "" {
				t.Fatal("EnqueueJob left ID empty, want an assigned id")
			}
			got, err := st.GetJob(ctx, sc.TenantID, job.ID)
			must(t, "GetJob", err)
			if got.Status != lore.JobQueued || got.Kind != "extract" || got.MaxAttempts != 3 || got.Scope != sc ||
				!slices.Equal(got.EpisodeIDs, job.EpisodeIDs) {
				t.Errorf("stored job=%+v, want the enqueued fields of %+v", got, job)
			}
			sameTime(t, "NextRunAt", got.NextRunAt, t0)

			got.Status = lore.JobDone
			got.Attempts = 2
			got.Error = "first attempt: timeout"
			got.NextRunAt = t0.Add(time.Hour)
			got.LeaseUntil = nil
			got.Events = []lore.MemoryEvent{{ID: "f1", Memory: "Alice likes tea", Event: lore.EventAdd, Type: lore.KindFact}}
			must(t, "SaveJob", st.SaveJob(ctx, got))
			saved, err := st.GetJob(ctx, sc.TenantID, job.ID)
			must(t, "GetJob after save", err)
			if saved.Status != lore.JobDone || saved.Attempts != 2 || saved.Error != "first attempt: timeout" ||
				len(saved.Events) != 1 || saved.Events[0] != got.Events[0] || saved.LeaseUntil != nil {
				t.Errorf("saved job=%+v, want status, attempts, error, events and no lease of %+v", saved, got)
			}
			sameTime(t, "saved NextRunAt", saved.NextRunAt, t0.Add(time.Hour))

			_, err = st.GetJob(ctx, newTenant(), job.ID)
			wantCode(t, "GetJob from another tenant", err, lore.ENOTFOUND)
			_, err = st.GetJob(ctx, sc.TenantID, uuid.NewString())
			wantCode(t, "GetJob unknown id", err, lore.ENOTFOUND)
			wantCode(t, "SaveJob unknown id", st.SaveJob(ctx, newJob(sc, t0, t0)), lore.ENOTFOUND)
		})

		run("ClaimOrderAndStates", func(t *testing.T) {
			ctx := ctxFor(t)
			sc := userScope()
			cleanupStore(t, st, sc)
			t0 := jobEpoch()
			second := newJob(sc, t0.Add(2*time.Second), t0)
			first := newJob(sc, t0.Add(time.Second), t0)
			later := newJob(sc, t0, t0.Add(time.Hour)) // oldest, but not due yet
			done := newJob(sc, t0, t0)
			done.Status = lore.JobDone
			failed := newJob(sc, t0, t0)
			failed.Status = lore.JobFailed
			for _, j := range []*lore.Job{second, first, later, done, failed} {
				must(t, "EnqueueJob", st.EnqueueJob(ctx, j))
			}
			now := t0.Add(time.Minute)
			req := lore.ClaimRequest{Now: now, Lease: 10 * time.Minute}
			for i, want := range []*lore.Job{first, second} {
				got, err := claimOwn(ctx, st, sc.TenantID, req)
				must(t, "ClaimJob", err)
				if got.ID != want.ID {
					t.Fatalf("claim %d got %q, want %q (oldest due first)", i, got.ID, want.ID)
				}
				if got.Status != lore.JobRunning || got.Attempts != 1 || got.LeaseUntil == nil || !got.LeaseUntil.Equal(now.Add(10*time.Minute)) {
					t.Errorf("claimed job status=%s attempts=%d lease=%v, want running, 1, %v", got.Status, got.Attempts, got.LeaseUntil, now.Add(10*time.Minute))
				}
			}
			_, err := claimOwn(ctx, st, sc.TenantID, req)
			wantCode(t, "ClaimJob with nothing due", err, lore.ENOTFOUND)

			// A retrying job is due again at its NextRunAt.
			stored, err := st.GetJob(ctx, sc.TenantID, first.ID)
			must(t, "GetJob", err)
			stored.Status = lore.JobRetrying
			stored.NextRunAt = now.Add(time.Minute)
			stored.LeaseUntil = nil
			must(t, "SaveJob", st.SaveJob(ctx, stored))
			_, err = claimOwn(ctx, st, sc.TenantID, req)
			wantCode(t, "ClaimJob before the retry is due", err, lore.ENOTFOUND)
			got, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: now.Add(2 * time.Minute), Lease: time.Minute})
			must(t, "ClaimJob retry", err)
			if got.ID != first.ID || got.Attempts != 2 {
				t.Errorf("retry claim got %q with %d attempts, want %q with 2", got.ID, got.Attempts, first.ID)
			}
		})

		run("LeaseExpiryReclaims", func(t *testing.T) {
			ctx := ctxFor(t)
			sc := userScope()
			cleanupStore(t, st, sc)
			t0 := jobEpoch()
			job := newJob(sc, t0, t0)
			must(t, "EnqueueJob", st.EnqueueJob(ctx, job))
			_, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Minute})
			must(t, "ClaimJob", err)
			_, err = claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0.Add(30 * time.Second), Lease: time.Minute})
			wantCode(t, "ClaimJob within the lease", err, lore.ENOTFOUND)
			got, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0.Add(2 * time.Minute), Lease: time.Minute})
			must(t, "ClaimJob after the lease", err)
			if got.ID != job.ID || got.Attempts != 2 || !got.LeaseUntil.Equal(t0.Add(3*time.Minute)) {
				t.Errorf("reclaimed job %q attempts=%d lease=%v, want %q, 2, %v", got.ID, got.Attempts, got.LeaseUntil, job.ID, t0.Add(3*time.Minute))
			}
		})

		run("ReleaseOwnJobs", func(t *testing.T) {
			ctx := ctxFor(t)
			leases, ok := st.(lore.JobLeases)
			if !ok {
				t.Fatalf("%T does not implement lore.JobLeases", st)
			}
			sc := userScope()
			cleanupStore(t, st, sc)
			t0 := jobEpoch()
			mine, theirs, kept := newJob(sc, t0, t0), newJob(sc, t0.Add(time.Second), t0), newJob(sc, t0.Add(2*time.Second), t0)
			must(t, "EnqueueJob mine", st.EnqueueJob(ctx, mine))
			must(t, "EnqueueJob theirs", st.EnqueueJob(ctx, theirs))
			must(t, "EnqueueJob kept", st.EnqueueJob(ctx, kept))
			me, other := "instance-"+uuid.NewString(), "instance-"+uuid.NewString()
			got, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Hour, Owner: me})
			must(t, "ClaimJob mine", err)
			if got.ID != mine.ID || got.Owner != me {
				t.Fatalf("claimed %q owner %q, want %q owner %q", got.ID, got.Owner, mine.ID, me)
			}
			_, err = claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Hour, Owner: other})
			must(t, "ClaimJob theirs", err)
			// A job the owner is still running is kept out of the release.
			got, err = claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Hour, Owner: me})
			must(t, "ClaimJob kept", err)
			if got.ID != kept.ID {
				t.Fatalf("claimed %q, want %q", got.ID, kept.ID)
			}
			if stored, err := st.GetJob(ctx, sc.TenantID, mine.ID); err != nil || stored.Owner != me {
				t.Errorf("stored owner=%v err=%v, want %q", stored, err, me)
			}

			n, err := leases.ReleaseJobs(ctx, "", t0)
			must(t, "ReleaseJobs empty owner", err)
			if n != 0 {
				t.Errorf("ReleaseJobs(\"\") released %d, want 0", n)
			}
			n, err = leases.ReleaseJobs(ctx, me, t0.Add(time.Minute), kept.ID, "no-such-job")
			must(t, "ReleaseJobs", err)
			if n != 1 {
				t.Errorf("ReleaseJobs released %d jobs, want 1 (only the owner's, not the kept one)", n)
			}
			if stored, err := st.GetJob(ctx, sc.TenantID, kept.ID); err != nil || stored.Status != lore.JobRunning {
				t.Errorf("kept job after release: %v err=%v, want still running", stored, err)
			}
			// Released: due at once, long before its hour-long lease ends,
			// and the crash did not spend an attempt.
			got, err = claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0.Add(time.Minute), Lease: time.Hour, Owner: me})
			must(t, "ClaimJob after release", err)
			if got.ID != mine.ID || got.Attempts != 1 {
				t.Errorf("after release claimed %q attempts=%d, want %q attempts=1", got.ID, got.Attempts, mine.ID)
			}
			// The other owner's job and the kept one are still leased.
			_, err = claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0.Add(time.Minute), Lease: time.Hour, Owner: me})
			wantCode(t, "ClaimJob of another owner's leased job", err, lore.ENOTFOUND)
		})

		run("MaxPerTenantAcrossClaimers", func(t *testing.T) {
			ctx := ctxFor(t)
			busy, other := userScope(), userScope()
			cleanupStore(t, st, busy)
			cleanupStore(t, st, other)
			t0 := jobEpoch()
			var busyJobs []*lore.Job
			for i := range 3 {
				j := newJob(busy, t0.Add(time.Duration(i)*time.Second), t0)
				must(t, "EnqueueJob busy", st.EnqueueJob(ctx, j))
				busyJobs = append(busyJobs, j)
			}
			otherJob := newJob(other, t0.Add(10*time.Second), t0)
			must(t, "EnqueueJob other", st.EnqueueJob(ctx, otherJob))
			// Two claimers (processes) with their own SkipTenants: the
			// store alone keeps the busy tenant at two running jobs.
			ours := map[string]bool{busy.TenantID: true, other.TenantID: true}
			claim := func(owner string) (*lore.Job, error) {
				req := lore.ClaimRequest{Now: t0, Lease: time.Hour, Owner: owner, MaxPerTenant: 2}
				for range 1000 {
					job, err := st.ClaimJob(ctx, req)
					if err != nil || ours[job.Scope.TenantID] {
						return job, err
					}
					req.SkipTenants = append(req.SkipTenants, job.Scope.TenantID)
				}
				return nil, lore.Errorf(lore.EINTERNAL, "too many foreign tenants")
			}
			var got []string
			for i, owner := range []string{"p1", "p2", "p1"} {
				job, err := claim(owner)
				must(t, fmt.Sprintf("claim %d", i), err)
				got = append(got, job.ID)
			}
			want := []string{busyJobs[0].ID, busyJobs[1].ID, otherJob.ID}
			if !slices.Equal(got, want) {
				t.Errorf("claims=%v, want %v (the busy tenant's first two, then the other tenant)", got, want)
			}
			_, err := claim("p2")
			wantCode(t, "claiming a third job of a tenant with two running", err, lore.ENOTFOUND)
			done, err := st.GetJob(ctx, busy.TenantID, busyJobs[0].ID)
			must(t, "GetJob", err)
			done.Status, done.LeaseUntil = lore.JobDone, nil
			must(t, "SaveJob done", st.SaveJob(ctx, done))
			job, err := claimOwn(ctx, st, busy.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Hour, MaxPerTenant: 2})
			must(t, "claim after one finished", err)
			if job.ID != busyJobs[2].ID {
				t.Errorf("after one finished claimed %q, want the busy tenant's third %q", job.ID, busyJobs[2].ID)
			}
		})

		run("PendingJobs", func(t *testing.T) {
			ctx := ctxFor(t)
			leases, ok := st.(lore.JobLeases)
			if !ok {
				t.Fatalf("%T does not implement lore.JobLeases", st)
			}
			sc := userScope()
			cleanupStore(t, st, sc)
			t0 := jobEpoch()
			n, err := leases.PendingJobs(ctx, sc.TenantID)
			must(t, "PendingJobs of a new tenant", err)
			if n != 0 {
				t.Errorf("PendingJobs of a new tenant=%d, want 0", n)
			}
			jobs := []*lore.Job{newJob(sc, t0, t0), newJob(sc, t0.Add(time.Second), t0), newJob(sc, t0.Add(2*time.Second), t0)}
			for _, j := range jobs {
				must(t, "EnqueueJob", st.EnqueueJob(ctx, j))
			}
			other := userScope()
			cleanupStore(t, st, other)
			must(t, "EnqueueJob other tenant", st.EnqueueJob(ctx, newJob(other, t0, t0)))
			claimed, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Hour})
			must(t, "ClaimJob", err)
			claimed.Status, claimed.LeaseUntil = lore.JobDone, nil
			must(t, "SaveJob done", st.SaveJob(ctx, claimed))
			n, err = leases.PendingJobs(ctx, sc.TenantID)
			must(t, "PendingJobs", err)
			if n != 2 {
				t.Errorf("PendingJobs=%d, want 2 (three enqueued, one done, another tenant's not counted)", n)
			}
		})

		run("SkipTenants", func(t *testing.T) {
			ctx := ctxFor(t)
			sc := userScope()
			cleanupStore(t, st, sc)
			t0 := jobEpoch()
			job := newJob(sc, t0, t0)
			must(t, "EnqueueJob", st.EnqueueJob(ctx, job))
			_, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Minute, SkipTenants: []string{sc.TenantID}})
			wantCode(t, "ClaimJob skipping the only tenant", err, lore.ENOTFOUND)
			got, err := claimOwn(ctx, st, sc.TenantID, lore.ClaimRequest{Now: t0, Lease: time.Minute, SkipTenants: []string{newTenant()}})
			must(t, "ClaimJob skipping another tenant", err)
			if got.ID != job.ID {
				t.Errorf("claimed %q, want %q", got.ID, job.ID)
			}
		})
	})
}

func runMeta(s suite, st lore.Store) {
	s.run("Meta/GetSet", func(t *testing.T) {
		ctx := ctxFor(t)
		key := "storetest." + uuid.NewString()
		_, err := st.GetMeta(ctx, key)
		wantCode(t, "GetMeta unknown key", err, lore.ENOTFOUND)
		must(t, "SetMeta", st.SetMeta(ctx, key, `{"name":"minilm","dim":384}`))
		must(t, "SetMeta other", st.SetMeta(ctx, key+".other", "x"))
		got, err := st.GetMeta(ctx, key)
		must(t, "GetMeta", err)
		if got != `{"name":"minilm","dim":384}` {
			t.Errorf("GetMeta=%q, want the stored value", got)
		}
		must(t, "SetMeta overwrite", st.SetMeta(ctx, key, "v2"))
		got, err = st.GetMeta(ctx, key)
		must(t, "GetMeta after overwrite", err)
		if got != "v2" {
			t.Errorf("GetMeta=%q, want v2", got)
		}
	})
}
