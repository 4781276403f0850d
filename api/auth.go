package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/audit"
)

// Auth authenticates requests with API keys (Authorization: Bearer lore_…,
// or Token lore_… as mem0's SDKs send it)
// and applies the per-key rate limit. Its Middleware is the one place that
// reads keys; handlers see the key only through the scope it fixes (see
// Server.scope) and never check keys themselves.
//
// A key fixes the request's tenant: a request naming another one, in the
// X-Lore-Tenant header or a tenant_id field, gets 403. A key pinned to a user
// or an agent refuses requests for others (403). A missing, unknown, revoked
// or expired key gets 401. Key management (/v1/keys) needs an admin key.
//
// Unless Required is set, a server listening on a loopback address serves
// without keys until the first key is created (the two-command start and
// the README's curl session); cmd/lore logs a warning when it starts so.
type Auth struct {
	Keys   lore.KeyStore
	Secret []byte // the HMAC key that stored key hashes are made with
	// Required makes every request need a key. When false, a Loopback
	// server with no key on record serves without one.
	Required bool
	Loopback bool
	// Rate and Burst configure each key's token bucket: Rate requests per
	// second on average, at most Burst at once. Rate 0 means no limit.
	Rate  float64
	Burst int
	// Now is the clock for expiry and rate limits; nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger // nil: slog.Default()
	// Audit, when set, records refused requests (401, 403), at most
	// auditFailureBurst at once per client address.
	Audit *audit.Log

	// keysSeen latches once a key is known to exist: auth stays on.
	keysSeen atomic.Bool
	// limiter and failures are made by Middleware; do not copy an Auth
	// after that.
	limiter  *limiter
	failures *limiter
}

// publicPaths answer without a key: orchestrators probe them without
// credentials, and they reveal nothing about any tenant.
var publicPaths = map[string]bool{"/healthz": true, "/readyz": true}

func (a *Auth) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func (a *Auth) logger() *slog.Logger {
	if a.Logger != nil {
		return a.Logger
	}
	return slog.Default()
}

// Open reports whether requests currently need no key: auth is not
// required, the server is on loopback, and no key has ever been created.
func (a *Auth) Open(ctx context.Context) (bool, error) {
	if a.Required || !a.Loopback || a.keysSeen.Load() {
		return false, nil
	}
	has, err := a.Keys.HasKeys(ctx)
	if err != nil {
		return false, err
	}
	if has {
		a.keysSeen.Store(true)
	}
	return !has, nil
}

// Middleware authenticates every request but the public probes.
func (a *Auth) Middleware(next http.Handler) http.Handler {
	if a.limiter == nil {
		a.limiter = newLimiter(a.Rate, a.Burst)
		a.failures = newLimiter(auditFailureRate, auditFailureBurst)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if publicPaths[r.URL.Path] || isUIAsset(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		open, err := a.Open(ctx)
		if err != nil {
			a.refuse(w, r, err)
			return
		}
		if open {
			// No key exists yet on a loopback server: serve, but still
			// bound the request rate, per client address.
			if err := a.limit("addr:" + clientHost(r)); err != nil {
				a.refuse(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		key, err := a.authenticate(ctx, r)
		if err == nil {
			err = checkNamedTenant(r, key)
		}
		if err == nil && strings.HasPrefix(r.URL.Path, "/v1/keys") && !key.Admin {
			err = lore.Errorf(lore.EFORBIDDEN, "managing keys needs an admin key")
		}
		if err == nil && r.URL.Path == "/metrics" && !key.Admin {
			err = lore.Errorf(lore.EFORBIDDEN, "reading metrics needs an admin key")
		}
		if err == nil && strings.HasPrefix(r.URL.Path, "/v1/tenants/") && !key.Admin {
			err = lore.Errorf(lore.EFORBIDDEN, "erasing a tenant needs an admin key")
		}
		if err == nil && !key.Admin && (r.URL.Path == "/v1/audit" || strings.HasPrefix(r.URL.Path, "/v1/retention")) {
			err = lore.Errorf(lore.EFORBIDDEN, "the audit log and retention settings need an admin key")
		}
		if err == nil {
			err = checkRole(key, r)
		}
		if err != nil {
			a.auditRefused(r, key, HTTPStatus(err))
			a.refuse(w, r, err)
			return
		}
		if err := a.limit("key:" + key.ID); err != nil {
			a.refuse(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithKey(ctx, key)))
	})
}

// authenticate returns the usable key the request carries. With a revoked
// or expired key it returns the key and the error.
func (a *Auth) authenticate(ctx context.Context, r *http.Request) (*lore.APIKey, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, lore.Errorf(lore.EUNAUTHORIZED, "an API key is required: send Authorization: Bearer lore_…")
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	// "Token" is the scheme mem0's SDKs send; it carries the same key.
	if !ok || !(strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "Token")) || !lore.LooksLikeKey(token) {
		return nil, lore.Errorf(lore.EUNAUTHORIZED, "the Authorization header must be Bearer (or Token) and a Lore API key (lore_…)")
	}
	key, err := a.Keys.KeyByHash(ctx, lore.KeyHash(a.Secret, token))
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		return nil, lore.Errorf(lore.EUNAUTHORIZED, "unknown API key")
	} else if err != nil {
		return nil, err
	}
	a.keysSeen.Store(true)
	now := a.now()
	// A refused key is returned too, for the audit record of the refusal.
	switch {
	case key.RevokedAt != nil:
		return key, lore.Errorf(lore.EUNAUTHORIZED, "API key %s is revoked", key.ID)
	case !key.Usable(now):
		return key, lore.Errorf(lore.EUNAUTHORIZED, "API key %s expired at %s", key.ID, key.ExpiresAt.UTC().Format(time.RFC3339))
	}
	return key, nil
}

// checkNamedTenant refuses a request whose X-Lore-Tenant header or
// tenant_id query parameter names a tenant other than the key's. Body
// fields are checked when the handler resolves the scope.
func checkNamedTenant(r *http.Request, key *lore.APIKey) error {
	for _, named := range []string{r.Header.Get(TenantHeader), r.URL.Query().Get("tenant_id")} {
		if named != "" && named != key.TenantID {
			return lore.Errorf(lore.EFORBIDDEN, "this API key is for another tenant than %q", named)
		}
	}
	return nil
}

// limit takes one token from the caller's bucket.
func (a *Auth) limit(caller string) error {
	if wait, ok := a.limiter.take(caller, a.now()); !ok {
		return &retryError{err: lore.Errorf(lore.ERATELIMITED, "rate limit exceeded; retry in %s", wait.Round(time.Millisecond)), wait: wait}
	}
	return nil
}

// retryError is a rate-limit refusal with the wait it asks for.
type retryError struct {
	err  *lore.Error
	wait time.Duration
}

func (e *retryError) Error() string { return e.err.Error() }

// Unwrap lets lore.ErrorCode find the coded error.
func (e *retryError) Unwrap() error { return e.err }

// refuse answers a request the middleware does not pass on. Refusals of
// keys are logged (without the key) at warn level; store failures once as
// errors.
func (a *Auth) refuse(w http.ResponseWriter, r *http.Request, err error) {
	if re, ok := err.(*retryError); ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(re.wait.Seconds()+0.999)))
	}
	if code := lore.ErrorCode(err); code == lore.EUNAUTHORIZED || code == lore.EFORBIDDEN {
		if code == lore.EUNAUTHORIZED {
			w.Header().Set("WWW-Authenticate", `Bearer realm="lore"`)
		}
		a.logger().WarnContext(r.Context(), "request refused", slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.String("remote", clientHost(r)), slog.String("reason", lore.ErrorMessage(err)))
	}
	writeHTTPError(w, r, a.logger(), err)
}

// writeHTTPError writes err as the API's JSON error outside gin, with the
// same status table and the same rule for internal errors as writeError.
func writeHTTPError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status := HTTPStatus(err)
	code, msg := lore.ErrorCode(err), lore.ErrorMessage(err)
	if status == http.StatusInternalServerError {
		code, msg = lore.EINTERNAL, "internal error"
		log.ErrorContext(r.Context(), "request failed", slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.String("error", err.Error()))
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(ErrorBody{Error: ErrorDetail{Code: code, Message: msg}})
}

// clientHost returns the host part of the request's remote address.
func clientHost(r *http.Request) string {
	host := r.RemoteAddr
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	return strings.Trim(host, "[]")
}

type keyCtx struct{}

// WithKey returns a context carrying the caller's authenticated key; it
// fixes the tenant as WithTenant does, and the key's user or agent pin.
func WithKey(ctx context.Context, key *lore.APIKey) context.Context {
	return context.WithValue(WithTenant(ctx, key.TenantID), keyCtx{}, key)
}

// KeyFrom returns the request's authenticated key, or nil.
func KeyFrom(ctx context.Context) *lore.APIKey {
	k, _ := ctx.Value(keyCtx{}).(*lore.APIKey)
	return k
}

// applyPins fills and checks the user and agent of a request's scope
// against its key's pin: an empty field takes the pinned value, another
// value is EFORBIDDEN.
func applyPins(ctx context.Context, sc *lore.Scope) error {
	key := KeyFrom(ctx)
	if key == nil {
		return nil
	}
	if key.UserID != "" {
		if sc.UserID != "" && sc.UserID != key.UserID {
			return lore.Errorf(lore.EFORBIDDEN, "this API key is limited to another user than %q", sc.UserID)
		}
		sc.UserID = key.UserID
	}
	if key.AgentID != "" {
		if sc.AgentID != "" && sc.AgentID != key.AgentID {
			return lore.Errorf(lore.EFORBIDDEN, "this API key is limited to another agent than %q", sc.AgentID)
		}
		sc.AgentID = key.AgentID
	}
	return nil
}
