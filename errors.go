package lore

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. Every layer returns these for failures whose meaning is known;
// api/ maps each code to one HTTP status in a single table.
const (
	EINVALID      = "invalid"                // bad input from the caller (HTTP 400)
	EUNAUTHORIZED = "unauthorized"           // no API key, or an unknown, revoked or expired one (401)
	EFORBIDDEN    = "forbidden"              // the key does not cover what the request names, or a browser-safety check refused it (403)
	ENOTFOUND     = "not_found"              // the record does not exist in the caller's scope (404)
	ECONFLICT     = "conflict"               // the write conflicts with stored state (409)
	ETOOLARGE     = "too_large"              // the input exceeds a configured limit (413)
	EMEDIATYPE    = "unsupported_media_type" // a request body that is not application/json (415)
	ERATELIMITED  = "rate_limited"           // the caller's key has used up its request budget (429)
	EUNAVAILABLE  = "unavailable"            // a dependency is down or not configured (503)
	EINTERNAL     = "internal"               // anything else; details are logged, not shown (500)
)

// Error is an application error with a machine-readable code and a message
// that is safe to show to the caller.
type Error struct {
	Code    string
	Message string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("lore error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, or a
// generic message for other errors so internals never reach the caller.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// retryAfterError is an error that tells the caller when to try again.
type retryAfterError struct {
	err   error
	after time.Duration
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

// WithRetryAfter marks err as one that may go away after d, so the API
// answers it with a Retry-After header.
func WithRetryAfter(err error, d time.Duration) error {
	return &retryAfterError{err: err, after: d}
}

// RetryAfter returns the wait an error marked by WithRetryAfter asks for.
func RetryAfter(err error) (time.Duration, bool) {
	var re *retryAfterError
	if errors.As(err, &re) {
		return re.after, true
	}
	return 0, false
}
