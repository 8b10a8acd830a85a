package server

import (
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// TestSiteNotFound: a path that names no file gets the site's own page
// with status 404 (not Go's bare "404 page not found"), HEAD without a
// body; files, the root and other methods are served as before.
func TestSiteNotFound(t *testing.T) {
	web := fstest.MapFS{
		"index.html":    {Data: []byte(`<!doctype html><title>Tabula</title><link href="css/app.css"><script src="js/app.js"></script><a href="#main">`)},
		"js/app.js":     {Data: []byte("// app")},
		"css/app.css":   {Data: []byte("body{}")},
		"rules/x.md":    {Data: []byte("# x")},
		"favicon.svg":   {Data: []byte("<svg/>")},
		"learn/a.json":  {Data: []byte("{}")},
		"rules/in.json": {Data: []byte("{}")},
	}
	h := newWebApp(web)
	for _, c := range []struct {
		method, path string
		code         int
		body         string
	}{
		{"GET", "/no/such/page", 404, "<title>Tabula</title>"},
		{"GET", "/js/missing.js", 404, "<title>Tabula</title>"},
		{"GET", "/../../etc/passwd", 404, "<title>Tabula</title>"},
		{"HEAD", "/nothing", 404, ""},
		{"GET", "/", 200, `<link href="/r/`},
		{"GET", "/js/app.js", 200, "// app"},
		{"GET", "/rules/x.md", 200, "# x"},
		{"POST", "/nothing", 404, "404 page not found"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.body) || (c.body == "" && rec.Body.Len() != 0) {
			t.Errorf("%s %s: %d %q, want %d with %q", c.method, c.path, rec.Code, rec.Body.String(), c.code, c.body)
		}
		if c.code == 404 && c.method != "POST" && !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%s %s: Content-Type %q", c.method, c.path, rec.Header().Get("Content-Type"))
		}
		// Below a bad path the page's files are named from the root.
		if c.code == 404 && c.method == "GET" && !regexp.MustCompile(`<link href="/r/[\w-]+/css/app.css"><script src="/r/[\w-]+/js/app.js"></script><a href="#main">`).MatchString(rec.Body.String()) {
			t.Errorf("%s %s: the page's files are not named from the root: %s", c.method, c.path, rec.Body.String())
		}
	}
}
