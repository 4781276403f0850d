package api

import (
	"net/http"
	"strings"

	"github.com/lore-memory/lore"
)

// readerPosts are the POST routes that only read.
var readerPosts = map[string]bool{"/v1/memories/search": true, "/v1/embeddings": true}

// checkRole refuses a request its key's role does not allow (403): a
// reader key reads and searches; a writer key also adds, updates and
// deletes single memories and facts and retries jobs, but neither erases a
// user, agent or run nor exports. Admin routes are checked apart (admin
// flag); a key of any other role (none, or a retrieval-policy role) may do
// the rest.
func checkRole(key *lore.APIKey, r *http.Request) error {
	if key.Role != lore.RoleReader && key.Role != lore.RoleWriter {
		return nil
	}
	p := r.URL.Path
	reads := r.Method == http.MethodGet || r.Method == http.MethodHead || (r.Method == http.MethodPost && readerPosts[p])
	if strings.HasPrefix(p, "/v1/users/") && strings.HasSuffix(p, "/export") {
		return lore.Errorf(lore.EFORBIDDEN, "exporting a user needs a key without the reader or writer role (this one is a %s key)", key.Role)
	}
	switch key.Role {
	case lore.RoleReader:
		if reads {
			return nil
		}
		return lore.Errorf(lore.EFORBIDDEN, "a reader key only reads and searches")
	case lore.RoleWriter:
		if reads || r.Method == http.MethodPost || r.Method == http.MethodPut ||
			(r.Method == http.MethodDelete && strings.HasPrefix(p, "/v1/memories/")) || (r.Method == http.MethodDelete && strings.HasPrefix(p, "/v1/keys/")) {
			return nil
		}
	}
	return lore.Errorf(lore.EFORBIDDEN, "a writer key does not erase: erasing a user, agent or run needs a key without the reader or writer role")
}
