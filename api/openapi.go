package api

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPIDoc is the OpenAPI 3 document of every route. TestOpenAPIMatchesRoutes
// fails when a route is registered without being documented or the other way
// round.
//
//go:embed openapi.json
var openAPIDoc []byte

// OpenAPI returns the API's OpenAPI 3 document.
func OpenAPI() []byte { return append([]byte(nil), openAPIDoc...) }

func (s *Server) openAPI(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", openAPIDoc)
}
