package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// mcp hands /mcp to the MCP transport.
func (s *Server) mcp(c *gin.Context) {
	if s.MCP == nil {
		s.writeError(c, lore.Errorf(lore.ENOTFOUND, "this server has no MCP endpoint"))
		return
	}
	// Every MCP message is a JSON body; refuse others here, in Lore's own
	// error shape, rather than with the SDK's plain-text 415 (an empty
	// body passes the input guard).
	if !isJSON(c.GetHeader("Content-Type")) {
		s.writeError(c, lore.Errorf(lore.EMEDIATYPE, "MCP messages must be JSON with Content-Type: application/json, got %q", c.GetHeader("Content-Type")))
		return
	}
	// The SDK reads the body itself: bound it as decodeBody does.
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.maxBodyBytes())
	s.MCP.ServeHTTP(c.Writer, c.Request)
}

// ui hands /ui and its assets to the web inspector.
func (s *Server) ui(c *gin.Context) {
	if s.UI == nil {
		s.writeError(c, lore.Errorf(lore.ENOTFOUND, "this server has no web inspector"))
		return
	}
	s.UI.ServeHTTP(c.Writer, c.Request)
}

// isUIAsset reports whether path is the web inspector's page or one of its
// static assets. They answer without a key, like the probes: they hold no
// tenant's data, and the page sends the key the user types in (or none, on
// an open loopback server) with every API call it makes.
func isUIAsset(path string) bool {
	return path == "/ui" || (strings.HasPrefix(path, "/ui/") && !strings.Contains(path[len("/ui/"):], "/"))
}
