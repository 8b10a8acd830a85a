package server

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// TestStaticFilesRevalidate: every file of the web application carries an
// entity tag and no-cache, a request that names the tag it holds gets a
// bodiless 304, a changed file a new tag and its new content; the root
// is index.html's; missing files and directories get no tag.
func TestStaticFilesRevalidate(t *testing.T) {
	web := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><title>Tabula</title>`)},
		"js/app.js":  {Data: []byte("// app, first version")},
		"css/a.css":  {Data: []byte("body{}")},
	}
	h := newWebApp(web)
	h.recheck = 0
	get := func(path, tag string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest("GET", path, nil)
		if tag != "" {
			r.Header.Set("If-None-Match", tag)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}

	first := get("/js/app.js", "")
	tag := first.Header().Get("ETag")
	if first.Code != 200 || first.Body.String() != "// app, first version" || len(tag) < 10 || tag[0] != '"' {
		t.Fatalf("GET /js/app.js: %d, ETag %q, body %q", first.Code, tag, first.Body.String())
	}
	if cc := first.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache (revalidate: the names carry no version)", cc)
	}
	if again := get("/js/app.js", ""); again.Header().Get("ETag") != tag {
		t.Errorf("the same file's tag changed: %q then %q", tag, again.Header().Get("ETag"))
	}
	if css := get("/css/a.css", "").Header().Get("ETag"); css == "" || css == tag {
		t.Errorf("another file's tag %q (app.js's %q)", css, tag)
	}
	if notModified := get("/js/app.js", tag); notModified.Code != http.StatusNotModified || notModified.Body.Len() != 0 {
		t.Errorf("GET with If-None-Match %s: %d with %d bytes, want 304 and none", tag, notModified.Code, notModified.Body.Len())
	}
	if stale := get("/js/app.js", `"something-else"`); stale.Code != 200 || stale.Body.String() != "// app, first version" {
		t.Errorf("GET with another tag: %d %q, want the file", stale.Code, stale.Body.String())
	}

	// A working copy (--web) changes under the server: the tag follows.
	web["js/app.js"] = &fstest.MapFile{Data: []byte("// app, second"), ModTime: time.Unix(1e9, 0)}
	changed := get("/js/app.js", tag)
	if changed.Code != 200 || changed.Body.String() != "// app, second" || changed.Header().Get("ETag") == tag {
		t.Errorf("after a change, GET with the old tag: %d %q ETag %q", changed.Code, changed.Body.String(), changed.Header().Get("ETag"))
	}

	root := get("/", "")
	if root.Code != 200 || root.Header().Get("ETag") == "" {
		t.Errorf("GET /: %d, ETag %q", root.Code, root.Header().Get("ETag"))
	}
	if r := get("/", root.Header().Get("ETag")); r.Code != http.StatusNotModified {
		t.Errorf("GET / with its tag: %d, want 304", r.Code)
	}
	if missing := get("/js/missing.js", ""); missing.Code != 404 || missing.Header().Get("ETag") != "" {
		t.Errorf("a missing file: %d, ETag %q", missing.Code, missing.Header().Get("ETag"))
	}
	if dir := get("/js/", ""); dir.Header().Get("ETag") != "" {
		t.Errorf("a directory: %d, ETag %q", dir.Code, dir.Header().Get("ETag"))
	}
}

// TestReleaseNames: the page names its files under the release (a hash of
// every file), which are cached as immutable; its import map sends /js/ to
// the same names and its Content-Security-Policy allows that map by its
// hash; another release's names are served checked (no-cache); a change to
// any file makes a new release; names under /r/ that are no file get the
// site's 404 page.
func TestReleaseNames(t *testing.T) {
	web := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><html><head><link rel="stylesheet" href="css/a.css"><script type="module" src="js/app.js"></script></head><body><a href="#main">x</a></body></html>`)},
		"js/app.js":  {Data: []byte("// app, first version")},
		"css/a.css":  {Data: []byte("body{}")},
	}
	h := newWebApp(web)
	h.recheck = 0
	get := func(path string) *httptest.ResponseRecorder {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	names := regexp.MustCompile(`^<!doctype html><html><head>\n<script type="importmap">\{"imports":\{"/js/":"/r/([\w-]+)/js/"\}\}</script><link rel="stylesheet" href="/r/([\w-]+)/css/a.css"><script type="module" src="/r/([\w-]+)/js/app.js"></script></head><body><a href="#main">x</a></body></html>$`)
	release := func() string {
		t.Helper()
		page := get("/")
		m := names.FindStringSubmatch(page.Body.String())
		if page.Code != 200 || m == nil || m[1] != m[2] || m[2] != m[3] {
			t.Fatalf("GET /: %d %s", page.Code, page.Body.String())
		}
		sum := sha256.Sum256([]byte(`{"imports":{"/js/":"/r/` + m[1] + `/js/"}}`))
		if csp := page.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"';") {
			t.Errorf("the page's Content-Security-Policy does not allow its import map: %s", csp)
		}
		if cc := page.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("the page's Cache-Control: %q", cc)
		}
		return m[1]
	}
	first := release()
	if again := release(); again != first {
		t.Fatalf("the release changed with no file changed: %s then %s", first, again)
	}

	app := get("/r/" + first + "/js/app.js")
	if app.Code != 200 || app.Body.String() != "// app, first version" || !strings.Contains(app.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("a file under the release's name: %d %q, Cache-Control %q", app.Code, app.Body.String(), app.Header().Get("Cache-Control"))
	}
	if plain := get("/js/app.js"); plain.Header().Get("ETag") != app.Header().Get("ETag") || plain.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("the same file at its plain name: ETag %q (%q under the release), Cache-Control %q", plain.Header().Get("ETag"), app.Header().Get("ETag"), plain.Header().Get("Cache-Control"))
	}
	if other := get("/r/0ld-release/js/app.js"); other.Code != 200 || other.Body.String() != "// app, first version" || other.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("a file under another release's name: %d %q, Cache-Control %q", other.Code, other.Body.String(), other.Header().Get("Cache-Control"))
	}
	for _, p := range []string{"/r/" + first + "/js/missing.js", "/r/" + first + "/", "/r/" + first + "/js/", "/r/" + first, "/r/", "/r/" + first + "/../../etc/passwd"} {
		if rec := get(p); rec.Code != 404 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") || rec.Header().Get("ETag") != "" {
			t.Errorf("GET %s: %d %q, ETag %q; want the site's 404 page", p, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("ETag"))
		}
	}

	// Any file changed (a working copy served with --web): a new release,
	// and the old names are no longer kept unchecked.
	web["css/a.css"] = &fstest.MapFile{Data: []byte("body{color:red}"), ModTime: time.Unix(1e9, 0)}
	second := release()
	if second == first {
		t.Fatalf("a changed file left the release as it was: %s", first)
	}
	if old := get("/r/" + first + "/css/a.css"); old.Body.String() != "body{color:red}" || old.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("the old release's name after the change: %q, Cache-Control %q", old.Body.String(), old.Header().Get("Cache-Control"))
	}
	if cur := get("/r/" + second + "/css/a.css"); cur.Body.String() != "body{color:red}" || !strings.Contains(cur.Header().Get("Cache-Control"), "immutable") {
		t.Errorf("the new release's name: %q, Cache-Control %q", cur.Body.String(), cur.Header().Get("Cache-Control"))
	}
}
