package ui_test

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lore-memory/lore/ui"
)

func TestServesPageAndAssets(t *testing.T) {
	h := ui.Handler()
	for _, c := range []struct {
		path, ctype, contains string
	}{
		{"/ui", "text/html", `<script src="/ui/app.js"`},
		{"/ui/", "text/html", `<svg id="graph"`},
		{"/ui/app.js", "text/javascript", "LoreGraph.render"},
		{"/ui/graph.js", "text/javascript", "function layout"},
		{"/ui/app.css", "text/css", "svg#graph"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", c.path, nil))
		if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), c.ctype) || !strings.Contains(rec.Body.String(), c.contains) {
			t.Errorf("GET %s: %d %q, body has %q: %v; want 200 %s", c.path, rec.Code, rec.Header().Get("Content-Type"), c.contains, strings.Contains(rec.Body.String(), c.contains), c.ctype)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: CSP %q, want own scripts only and no framing", c.path, csp)
		}
		etag := rec.Header().Get("ETag")
		again := httptest.NewRecorder()
		req := httptest.NewRequest("GET", c.path, nil)
		req.Header.Set("If-None-Match", etag)
		h.ServeHTTP(again, req)
		if etag == "" || again.Code != http.StatusNotModified {
			t.Errorf("GET %s with If-None-Match %q: %d, want 304", c.path, etag, again.Code)
		}
	}
	for _, p := range []string{"/ui/missing.js", "/ui/../ui.go"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `"code":"not_found"`) {
			t.Errorf("GET %s: %d %s, want 404 in the API's error shape", p, rec.Code, rec.Body)
		}
	}
}

// TestAssetsWorkOffline: the page loads nothing from another origin and
// never writes server data as markup.
func TestAssetsWorkOffline(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	err := filepath.WalkDir("assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if m := external.FindString(line); m != "" && !strings.Contains(line, "http://www.w3.org/2000/svg") {
				t.Errorf("%s refers to another origin: %s", p, strings.TrimSpace(line))
			}
			if strings.Contains(line, "innerHTML") || strings.Contains(line, "insertAdjacentHTML") || strings.Contains(line, "document.write") {
				t.Errorf("%s writes markup: %s", p, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
