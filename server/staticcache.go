package server

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// validated gives each of the web application's files an entity tag (a
// hash of its content) and tells browsers to check it before reusing their
// copy (Cache-Control: no-cache), so that a page load whose files have not
// changed gets a bodiless 304 for each of them instead of the whole file,
// and the browser keeps what it compiled of them. The files carry no
// modification time (embedded files have none), so without a tag a browser
// fetched every module of the application on every visit and reload.
// no-cache rather than a lifetime: the files' names carry no version, and a
// browser that kept an old module for a while beside a new one would run a
// mix of two releases. http.FileServer answers If-None-Match itself once
// the ETag header is set.
func validated(web fs.FS, files http.Handler) http.Handler {
	tags := &fileTags{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			if tag, ok := tags.of(web, r.URL.Path); ok {
				w.Header().Set("ETag", tag)
				w.Header().Set("Cache-Control", "no-cache")
			}
		}
		files.ServeHTTP(w, r)
	})
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

// of is the tag of the file urlPath names (index.html for the root), and
// false for a directory, a missing file or one FileServer redirects from
// (a path ending in /index.html).
func (t *fileTags) of(web fs.FS, urlPath string) (string, bool) {
	if strings.HasSuffix(urlPath, "/index.html") {
		return "", false
	}
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		name = "index.html"
	}
	info, err := fs.Stat(web, name)
	if err != nil || info.IsDir() {
		return "", false
	}
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
