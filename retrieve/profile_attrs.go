package retrieve

import (
	"context"
	"fmt"
	"strings"

	"github.com/lore-memory/lore"
)

// ProfileAttributes is the AttributeSource that cohort priors read from
// users' profiles (issue 14's cold start over issue 13's profile): each
// single-valued entry gives its key and normalised value (diet=vegetarian,
// occupation=nurse, level_climbing=beginner), and three attributes are
// named as the cohort keys expect them:
//
//	role       the occupation
//	locale     the location
//	expertise  the level of the user's most confident level_* entry
//	           (ties: the first key in order)
//
// Multi-valued keys (interests, places) name no cohort and are left out.
type ProfileAttributes struct {
	Store lore.TenantProfiles
}

var _ AttributeSource = ProfileAttributes{}

// UserAttributes returns the attributes of the tenant's users with a
// profile.
func (a ProfileAttributes) UserAttributes(ctx context.Context, tenantID string) (map[string]map[string]string, error) {
	profiles, err := a.Store.TenantProfileEntries(ctx, tenantID)
	if err != nil {
		return nil, fmt.Errorf("retrieve: profile attributes: %w", err)
	}
	out := make(map[string]map[string]string, len(profiles))
	for user, entries := range profiles {
		attrs := map[string]string{}
		best := -1.0
		for _, e := range entries {
			if lore.MultiValuedProfileKey(e.Key) {
				continue
			}
			v := lore.NormalizeProfileValue(e.Value)
			attrs[e.Key] = v
			switch {
			case e.Key == "occupation":
				attrs["role"] = v
			case e.Key == "location":
				attrs["locale"] = v
			case strings.HasPrefix(e.Key, "level_") && e.Confidence > best:
				attrs["expertise"], best = v, e.Confidence
			}
		}
		if len(attrs) > 0 {
			out[user] = attrs
		}
	}
	return out, nil
}
