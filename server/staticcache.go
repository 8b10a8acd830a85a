package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// releasePrefix starts the names under which the page asks for its files:
// /r/<release>/js/app.js, where the release is a hash of every file of the
// web application.
const releasePrefix = "/r/"

// webApp serves the web application: its page at the root, its files, and
// the site's own "page not found" for a GET of a path that names no file.
//
// The page names its files under the release's names, which browsers keep
// for a year without asking again (immutable): a visit after the first
// asks the server for the page alone, not for each of the ~60 modules and
// style sheets a page loads (each a round trip for a 304 when they were
// checked on every use). A new release changes every name, so a browser
// never runs a mix of two releases from its cache. An import map sends the
// application's absolute module names (/js/…) to the release's names too,
// so that a module imported as /js/i18n.js is the instance the page runs.
//
// The files at their plain names, and under the names of a release that is
// not the server's (a page of the previous release while a cluster is
// upgraded node by node), are served as they are now with an entity tag and
// no-cache: the browser checks its copy on every use and keeps nothing
// stale. The files carry no modification time (embedded files have none),
// hence the tags. A working copy served with --web gets a new release at
// every saved change.
type webApp struct {
	web   fs.FS
	files http.Handler
	tags  fileTags

	// The release, worked out at most once a recheck (a walk of every file
	// for each of a page's requests would be the only cost of a cached one).
	recheck   time.Duration
	mu        sync.Mutex
	current   string
	currentOK bool
	checked   time.Time
}

func newWebApp(web fs.FS) *webApp {
	return &webApp{web: web, files: http.FileServerFS(web), recheck: time.Second}
}

// relativeRef is a link or source attribute of the page that names a file
// relative to the page (not a fragment, not from the root, not absolute).
var relativeRef = regexp.MustCompile(`(href|src)="([^/#"][^":]*)"`)

func (a *webApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		a.files.ServeHTTP(w, r)
		return
	}
	if r.URL.Path == "/" {
		a.servePage(w, r, http.StatusOK)
		return
	}
	release, rest, versioned := strings.Cut(strings.TrimPrefix(r.URL.Path, releasePrefix), "/")
	if !versioned || !strings.HasPrefix(r.URL.Path, releasePrefix) {
		release, rest = "", r.URL.Path
	}
	name := strings.TrimPrefix(path.Clean("/"+rest), "/")
	if name == "" {
		name = "."
	}
	info, err := fs.Stat(a.web, name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err == nil && release != "" && info.IsDir()):
		a.servePage(w, r, http.StatusNotFound)
		return
	case err != nil || info.IsDir() || strings.HasSuffix(r.URL.Path, "/index.html"):
		// Directories, and index.html, which FileServer sends to its
		// directory, are FileServer's to answer.
		a.files.ServeHTTP(w, r)
		return
	}
	tag, ok := a.tags.of(a.web, name, info)
	if !ok {
		a.files.ServeHTTP(w, r)
		return
	}
	h := w.Header()
	h.Set("ETag", tag)
	if current, ok := a.release(); release != "" && ok && release == current {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if release != "" {
		http.StripPrefix(releasePrefix+release, a.files).ServeHTTP(w, r)
		return
	}
	a.files.ServeHTTP(w, r)
}

// servePage sends index.html with its files named under the release (from
// the root, so that the page works below any path), the import map, and a
// Content-Security-Policy that allows that one inline script by its hash.
// Status 404 is the site's "page not found": the page tells it by its path.
func (a *webApp) servePage(w http.ResponseWriter, r *http.Request, status int) {
	page, err := fs.ReadFile(a.web, "index.html")
	if err != nil {
		if status == http.StatusNotFound {
			http.NotFound(w, r)
		} else {
			a.files.ServeHTTP(w, r)
		}
		return
	}
	release, ok := a.release()
	base := "/"
	if ok {
		base = releasePrefix + release + "/"
	}
	page = relativeRef.ReplaceAll(page, []byte(`$1="`+base+`$2"`))
	importMap := `{"imports":{"/js/":"` + base + `js/"}}`
	if ok {
		page = bytes.Replace(page, []byte("<head>"), []byte(`<head>`+"\n"+`<script type="importmap">`+importMap+`</script>`), 1)
	}
	sum := sha256.Sum256([]byte(importMap))
	h := w.Header()
	h.Set("Content-Security-Policy", strings.Replace(contentSecurityPolicy, "script-src 'self'",
		"script-src 'self' 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", 1))
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	if status != http.StatusOK {
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			_, _ = w.Write(page)
		}
		return
	}
	pageSum := sha256.Sum256(page)
	h.Set("ETag", `"`+base64.RawURLEncoding.EncodeToString(pageSum[:16])+`"`)
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(page))
}

// release names the application's current files: a hash of every file's
// name and tag. False when the files cannot be listed.
func (a *webApp) release() (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if now := time.Now(); now.Sub(a.checked) >= a.recheck {
		a.current, a.currentOK = a.walkRelease()
		a.checked = now
	}
	return a.current, a.currentOK
}

func (a *webApp) walkRelease() (string, bool) {
	type entry struct{ name, tag string }
	var entries []entry
	err := fs.WalkDir(a.web, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		tag, ok := a.tags.of(a.web, name, info)
		if !ok {
			return fs.ErrNotExist
		}
		entries = append(entries, entry{name, tag})
		return nil
	})
	if err != nil || len(entries) == 0 {
		return "", false
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	h := sha256.New()
	for _, e := range entries {
		h.Write([]byte(e.name + "\x00" + e.tag + "\n"))
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:9]), true
}

// fileTags remembers each file's tag by name, size and modification time: a
// working copy served with --web gets a new tag when a file is saved, the
// embedded files are hashed once.
type fileTags struct {
	mu   sync.Mutex
	tags map[fileVersion]string
}

type fileVersion struct {
	name string
	size int64
	mod  time.Time
}

// maxTags bounds the remembered tags: the application has a few hundred
// files, but a working copy edited for days makes a new version at every
// save.
const maxTags = 4096

// of is the tag of the file name (its content's hash, quoted as an entity
// tag), whose FileInfo the caller has; false when it cannot be read.
func (t *fileTags) of(web fs.FS, name string, info fs.FileInfo) (string, bool) {
	v := fileVersion{name: name, size: info.Size(), mod: info.ModTime()}
	t.mu.Lock()
	tag, ok := t.tags[v]
	t.mu.Unlock()
	if ok {
		return tag, true
	}
	data, err := fs.ReadFile(web, name)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(data)
	tag = `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
	t.mu.Lock()
	if t.tags == nil || len(t.tags) >= maxTags {
		t.tags = make(map[fileVersion]string)
	}
	t.tags[v] = tag
	t.mu.Unlock()
	return tag, true
}
