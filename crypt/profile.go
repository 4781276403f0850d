package crypt

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// Profile values are sealed like the rest of a user's text. The stores
// deduplicate a user's entries of a key by value (lore.PlanProfileWrite),
// which random encryption would defeat, so each sealed entry carries a
// lore.ProfileEntry.ValueKey: a keyed token of the user, key and normalised
// value under the tenant's data key. Equal values of one user's key get
// equal tokens; different users' do not, and without the data key nobody
// can confirm a guessed value from a token. Keys stay in the clear: they
// come from the documented list in profile_keys.txt.
var (
	_ lore.ProfileStore   = (*Store)(nil)
	_ lore.TenantProfiles = (*Store)(nil)
)

// profileTokenPurpose names the profile value tokens' derived key.
const profileTokenPurpose = "profile-value"

// PutProfileEntry checks e in the clear (the value's length limit applies
// to the text, not to its sealed form), seals its value with a dedup token,
// and opens what the store reports.
func (s *Store) PutProfileEntry(ctx context.Context, scope lore.Scope, e lore.ProfileEntry) (lore.ProfileWrite, error) {
	p, err := port[lore.ProfileStore](s)
	if err != nil {
		return lore.ProfileWrite{}, err
	}
	if err := lore.ValidateProfileScope(scope); err != nil {
		return lore.ProfileWrite{}, err
	}
	// Validate a copy: the store puts UpdatedAt and the rest in stored
	// form by its own clock.
	c := e
	c.ValueKey = ""
	if err := c.Normalize(time.Now()); err != nil {
		return lore.ProfileWrite{}, err
	}
	e.Key = c.Key
	// Evidence naming a search is the query's unkeyed hash
	// (lore.QueryEvidence): sealed deterministically, so the store still
	// deduplicates evidence and a guessed query cannot be confirmed.
	e.Evidence = make([]string, len(c.Evidence))
	for i, id := range c.Evidence {
		if e.Evidence[i], err = s.sealEvidence(ctx, scope.TenantID, id); err != nil {
			return lore.ProfileWrite{}, err
		}
	}
	if e.ValueKey, err = s.Keys.Token(ctx, scope.TenantID, profileTokenPurpose, scope.UserID, c.Key, lore.NormalizeProfileValue(c.Value)); err != nil {
		return lore.ProfileWrite{}, err
	}
	e.ValueKey = "k:" + e.ValueKey
	if e.Value, err = s.Keys.Seal(ctx, scope.TenantID, c.Value); err != nil {
		return lore.ProfileWrite{}, err
	}
	w, err := p.PutProfileEntry(ctx, scope, e)
	if err != nil {
		return w, err
	}
	if w.Entry != nil {
		entry := *w.Entry
		if err := s.openProfile(ctx, scope.TenantID, &entry); err != nil {
			return lore.ProfileWrite{}, err
		}
		w.Entry = &entry
	}
	w.Replaced = slices.Clone(w.Replaced)
	for i := range w.Replaced {
		if err := s.openProfile(ctx, scope.TenantID, &w.Replaced[i]); err != nil {
			return lore.ProfileWrite{}, err
		}
	}
	return w, nil
}

// ProfileEntries opens the user's entries and orders them by key, then
// value, as the port promises (the store orders by the tokens).
func (s *Store) ProfileEntries(ctx context.Context, scope lore.Scope) ([]lore.ProfileEntry, error) {
	p, err := port[lore.ProfileStore](s)
	if err != nil {
		return nil, err
	}
	out, err := p.ProfileEntries(ctx, scope)
	if err != nil {
		return nil, err
	}
	if err := s.openProfiles(ctx, scope.TenantID, out); err != nil {
		return nil, err
	}
	sortProfile(out)
	return out, nil
}

// ProfileHistory opens the replaced entries.
func (s *Store) ProfileHistory(ctx context.Context, scope lore.Scope, key string) ([]lore.ProfileEntry, error) {
	p, err := port[lore.ProfileStore](s)
	if err != nil {
		return nil, err
	}
	out, err := p.ProfileHistory(ctx, scope, key)
	if err != nil {
		return nil, err
	}
	return out, s.openProfiles(ctx, scope.TenantID, out)
}

// DeleteProfileKey passes through (keys are in the clear).
func (s *Store) DeleteProfileKey(ctx context.Context, scope lore.Scope, key string) (int, error) {
	p, err := port[lore.ProfileStore](s)
	if err != nil {
		return 0, err
	}
	return p.DeleteProfileKey(ctx, scope, key)
}

// TenantProfileEntries opens every user's entries (the cohort priors
// compare values across users).
func (s *Store) TenantProfileEntries(ctx context.Context, tenantID string) (map[string][]lore.ProfileEntry, error) {
	p, err := port[lore.TenantProfiles](s)
	if err != nil {
		return nil, err
	}
	out, err := p.TenantProfileEntries(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	for _, es := range out {
		if err := s.openProfiles(ctx, tenantID, es); err != nil {
			return nil, err
		}
		sortProfile(es)
	}
	return out, nil
}

func (s *Store) openProfiles(ctx context.Context, tenant string, es []lore.ProfileEntry) error {
	for i := range es {
		if err := s.openProfile(ctx, tenant, &es[i]); err != nil {
			return err
		}
	}
	return nil
}

// evidencePurpose names the deterministic seal of query hashes, in profile
// evidence and in the query log alike.
const evidencePurpose = "query-evidence"

// sealEvidence seals an evidence reference that is a query hash (of the
// form lore.QueryEvidence makes); memory ids and other references pass.
func (s *Store) sealEvidence(ctx context.Context, tenant, id string) (string, error) {
	h, ok := strings.CutPrefix(id, lore.QueryEvidencePrefix)
	if !ok || len(h) != 32 || strings.Trim(h, "0123456789abcdef") != "" {
		return id, nil
	}
	return s.Keys.SealDeterministic(ctx, tenant, evidencePurpose, id)
}

// openProfile opens e's value and evidence; an entry written before
// sealing comes back as it is.
func (s *Store) openProfile(ctx context.Context, tenant string, e *lore.ProfileEntry) error {
	v, err := s.Keys.Open(ctx, tenant, e.Value)
	if err != nil {
		return err
	}
	e.Value, e.ValueKey = v, ""
	if len(e.Evidence) > 0 {
		ev := make([]string, len(e.Evidence))
		for i, id := range e.Evidence {
			if ev[i], err = s.Keys.Open(ctx, tenant, id); err != nil {
				return err
			}
		}
		e.Evidence = ev
	}
	return nil
}

// sortProfile orders entries by key, then normalised value, as the stores
// order plain ones.
func sortProfile(es []lore.ProfileEntry) {
	slices.SortStableFunc(es, func(a, b lore.ProfileEntry) int {
		return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(lore.NormalizeProfileValue(a.Value), lore.NormalizeProfileValue(b.Value)))
	})
}
