package server

import (
	"net/http"
	"net/http/httptest"
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
	h := siteNotFound(web, validated(web, http.FileServerFS(web)))
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
