package api

import (
	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// callerRole is the role a search is asked with, for the retrieval
// policies: with keys, the authenticated key's role (none for a key without
// one; a request naming another is EFORBIDDEN, so a caller cannot claim a
// role), and without keys the request's.
func callerRole(c *gin.Context, asked string) (string, error) {
	if key := KeyFrom(c.Request.Context()); key != nil {
		if asked != "" && asked != key.Role {
			return "", lore.Errorf(lore.EFORBIDDEN, "role %q is not this API key's role", asked)
		}
		return key.Role, nil
	}
	if err := lore.ValidateID("role", asked); err != nil {
		return "", err
	}
	return asked, nil
}
