package crypt

import (
	"context"
	"slices"

	"github.com/lore-memory/lore"
)

// A job row holds what the user said too: a profile job carries the
// entries it will write (values included) in its EpisodeIDs, and a finished
// extraction its events, each with the text of a fact. Both are sealed
// under the tenant's data key on the way to the store and opened on the way
// back; an extraction job's episode ids are sealed alike (they are only
// ever read back whole).

// sealJob returns a copy of job with its payload and events' text sealed.
func (s *Store) sealJob(ctx context.Context, job *lore.Job) (*lore.Job, error) {
	c := *job
	t := job.Scope.TenantID
	c.EpisodeIDs = slices.Clone(job.EpisodeIDs)
	for i, v := range c.EpisodeIDs {
		var err error
		if c.EpisodeIDs[i], err = s.Keys.Seal(ctx, t, v); err != nil {
			return nil, err
		}
	}
	// An error can quote what the user said ("entity name %q …").
	var err error
	if c.Error, err = s.Keys.Seal(ctx, t, job.Error); err != nil {
		return nil, err
	}
	c.Events = slices.Clone(job.Events)
	for i := range c.Events {
		var err error
		if c.Events[i].Memory, err = s.Keys.Seal(ctx, t, c.Events[i].Memory); err != nil {
			return nil, err
		}
	}
	return &c, nil
}

// openJob opens what sealJob sealed, in place.
func (s *Store) openJob(ctx context.Context, job *lore.Job) error {
	t := job.Scope.TenantID
	var err error
	if job.Error, err = s.Keys.Open(ctx, t, job.Error); err != nil {
		return err
	}
	for i, v := range job.EpisodeIDs {
		if job.EpisodeIDs[i], err = s.Keys.Open(ctx, t, v); err != nil {
			return err
		}
	}
	for i := range job.Events {
		var err error
		if job.Events[i].Memory, err = s.Keys.Open(ctx, t, job.Events[i].Memory); err != nil {
			return err
		}
	}
	return nil
}

// EnqueueJob seals the job's payload; job itself is left as given, apart
// from what the store sets on it.
func (s *Store) EnqueueJob(ctx context.Context, job *lore.Job) error {
	c, err := s.sealJob(ctx, job)
	if err != nil {
		return err
	}
	if err := s.Store.EnqueueJob(ctx, c); err != nil {
		return err
	}
	c.EpisodeIDs, c.Events, c.Error = job.EpisodeIDs, job.Events, job.Error
	*job = *c
	return nil
}

// SaveJob seals the job's payload and events.
func (s *Store) SaveJob(ctx context.Context, job *lore.Job) error {
	c, err := s.sealJob(ctx, job)
	if err != nil {
		return err
	}
	return s.Store.SaveJob(ctx, c)
}

// ClaimJob opens the claimed job.
func (s *Store) ClaimJob(ctx context.Context, req lore.ClaimRequest) (*lore.Job, error) {
	job, err := s.Store.ClaimJob(ctx, req)
	if err != nil {
		return nil, err
	}
	return job, s.openJob(ctx, job)
}

// GetJob opens the job.
func (s *Store) GetJob(ctx context.Context, tenantID, id string) (*lore.Job, error) {
	job, err := s.Store.GetJob(ctx, tenantID, id)
	if err != nil {
		return nil, err
	}
	return job, s.openJob(ctx, job)
}
