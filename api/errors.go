package api

import (
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// ErrorBody is the JSON shape of every error response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the machine-readable code and the human-readable message of
// an error response.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// HTTPStatus maps an error's lore code to its HTTP status. It is the one
// table where the API decides a status for an error; codes it does not know
// are internal errors.
func HTTPStatus(err error) int {
	switch lore.ErrorCode(err) {
	case lore.EINVALID:
		return http.StatusBadRequest
	case lore.ENOTFOUND:
		return http.StatusNotFound
	case lore.ECONFLICT:
		return http.StatusConflict
	case lore.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case lore.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case lore.EFORBIDDEN:
		return http.StatusForbidden
	case lore.ERATELIMITED:
		return http.StatusTooManyRequests
	case lore.EMEDIATYPE:
		return http.StatusUnsupportedMediaType
	case lore.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// unavailableRetrySeconds is the Retry-After of a 503: about the time the
// job queue takes to notice a dependency is back (ingest OutageRetry).
const unavailableRetrySeconds = 5

// writeError answers with the error's status and JSON body. Internal errors
// are logged here, once, with the request they belong to; the caller sees
// only "internal error".
func (s *Server) writeError(c *gin.Context, err error) {
	status, body := s.errorBody(c, err)
	c.AbortWithStatusJSON(status, body)
}

// errorBody returns the status and body that answer err, logging an
// internal error once.
func (s *Server) errorBody(c *gin.Context, err error) (int, ErrorBody) {
	status := HTTPStatus(err)
	code, msg := lore.ErrorCode(err), lore.ErrorMessage(err)
	if status == http.StatusInternalServerError {
		// Whatever reached here unmapped may carry internals (paths, SQL);
		// the caller gets a fixed message and the log gets the detail.
		code, msg = lore.EINTERNAL, "internal error"
		s.logger().ErrorContext(c.Request.Context(), "request failed",
			slog.String("method", c.Request.Method),
			slog.String("route", c.FullPath()),
			slog.String("request_id", c.GetString(requestIDKey)),
			slog.String("error", err.Error()))
	}
	if wait, ok := lore.RetryAfter(err); ok {
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(max(wait.Seconds(), 1)))))
	} else if status == http.StatusServiceUnavailable {
		// A dependency is down; clients that honour this back off instead
		// of hammering a server that is waiting for it.
		c.Header("Retry-After", strconv.Itoa(unavailableRetrySeconds))
	}
	s.auditRefusal(c, err)
	return status, ErrorBody{Error: ErrorDetail{Code: code, Message: msg}}
}
