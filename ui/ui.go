// Package ui is Lore's web inspector: one page, its script and its style
// sheet, embedded in the binary so that it works offline. `lore serve`
// mounts Handler at /ui. The page holds no data; it reads the API with the
// key the user types in (kept in the tab's sessionStorage, sent as Bearer),
// or with none on a loopback server that has no key yet, so it is exactly
// as authorised as any other API client.
package ui

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

//go:embed assets
var assets embed.FS

// contentType is the type an asset is served with, by extension; "" for
// a file that is not served.
func contentType(ext string) string {
	switch ext {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return ""
}

// csp allows the page only its own scripts, styles and API: no inline
// script, no other origin, no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// asset is an embedded file ready to serve.
type asset struct {
	body        []byte
	contentType string
	etag        string
}

// Handler serves GET /ui (the page) and GET /ui/{name} (its assets).
func Handler() http.Handler {
	files := map[string]asset{}
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embed directive guarantees the directory
	}
	_ = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		files[p] = asset{body: b, contentType: contentType(path.Ext(p)), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/ui"), "/")
		if name == "" {
			name = "index.html"
		}
		a, ok := files[name]
		if !ok || a.contentType == "" {
			notFound(w, r.URL.Path)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", a.etag)
		if r.Header.Get("If-None-Match") == a.etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		_, _ = w.Write(a.body)
	})
}

// notFound answers in the API's error shape.
func notFound(w http.ResponseWriter, p string) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": "not_found", "message": "no web inspector asset " + p}})
}
