package api

import (
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// Browser is the middleware that keeps web pages from using a Lore server
// they happen to reach: a page on another origin gets 403 unless the origin
// is on the CORS allow-list, and a server on a loopback address answers only
// requests whose Host names it as loopback, so a DNS-rebinding page (whose
// requests carry its own host name) gets 403 too. Together with the JSON
// content type that every body must have (a cross-origin JSON request needs
// a preflight, which only listed origins pass), a page can neither read
// from nor write to the server.
type Browser struct {
	// AllowedOrigins lists the origins (scheme://host[:port]) allowed to
	// call the API from a browser; "*" allows any. Empty: none.
	AllowedOrigins []string
	// AllowedHosts, when not nil, lists the Host header values the server
	// answers (see LoopbackHosts). Nil: no Host check.
	AllowedHosts []string
	Logger       *slog.Logger // nil: slog.Default()
}

// corsHeaders are the request headers a listed origin may send.
const corsHeaders = "Authorization, Content-Type, " + TenantHeader + ", " + RequestIDHeader

// LoopbackHosts returns the Host header values a server listening on addr
// answers when addr is a loopback address: localhost, 127.0.0.1 and [::1],
// with or without the port. It returns nil for any other address (the Host
// check then does not apply: a server on a routable address needs keys).
func LoopbackHosts(addr string) []string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil || !IsLoopback(addr) {
		return nil
	}
	var out []string
	for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
		out = append(out, h, h+":"+port)
	}
	return out
}

// IsLoopback reports whether a listen address (host:port) only accepts
// connections from this machine: localhost or a loopback IP. An empty host
// (every interface) is not loopback.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (b *Browser) logger() *slog.Logger {
	if b.Logger != nil {
		return b.Logger
	}
	return slog.Default()
}

// Middleware applies the Host check and CORS, and answers preflights.
func (b *Browser) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b.AllowedHosts != nil && !slices.Contains(b.AllowedHosts, strings.ToLower(r.Host)) {
			writeHTTPError(w, r, b.logger(), lore.Errorf(lore.EFORBIDDEN,
				"Host %q is not this server's loopback address; use localhost or 127.0.0.1", r.Host))
			return
		}
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		listed := slices.Contains(b.AllowedOrigins, origin) || slices.Contains(b.AllowedOrigins, "*")
		if !listed && !sameOrigin(origin, r.Host) {
			writeHTTPError(w, r, b.logger(), lore.Errorf(lore.EFORBIDDEN,
				"origin %q is not allowed to call this server (see --cors-origins)", origin))
			return
		}
		if listed {
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Set("Access-Control-Expose-Headers", RequestIDHeader+", Retry-After")
		}
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
			w.Header().Set("Access-Control-Allow-Headers", corsHeaders)
			w.Header().Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether origin names the host the request was sent
// to: a page served by this server itself.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, host)
}

// guardInput refuses, before routing, a request body that is not JSON (415:
// a browser sends text/plain and form bodies cross-origin without asking)
// and query parameters that are not valid UTF-8 (400 naming the parameter).
func (s *Server) guardInput(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkQueryUTF8(r.URL.RawQuery); err != nil {
			writeHTTPError(w, r, s.logger(), err)
			return
		}
		if hasBody(r) && !isJSON(r.Header.Get("Content-Type")) {
			writeHTTPError(w, r, s.logger(), lore.Errorf(lore.EMEDIATYPE,
				"request bodies must be JSON with Content-Type: application/json, got %q", r.Header.Get("Content-Type")))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hasBody reports whether a request carries a body, or may (chunked).
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// isJSON reports whether a Content-Type is application/json or a +json type.
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")))
}

// checkQueryUTF8 returns EINVALID naming the first query parameter whose
// name or value is not valid UTF-8 once unescaped.
func checkQueryUTF8(raw string) error {
	if raw == "" {
		return nil
	}
	for _, pair := range strings.Split(raw, "&") {
		k, v, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil || !utf8.ValidString(name) {
			return lore.Errorf(lore.EINVALID, "a query parameter name is not valid UTF-8")
		}
		val, err := url.QueryUnescape(v)
		if err == nil && !utf8.ValidString(val) {
			return lore.Errorf(lore.EINVALID, "%s is not valid UTF-8", name)
		}
	}
	return nil
}
