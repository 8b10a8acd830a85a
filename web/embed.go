// Package web is the Tabula web application: plain ES modules, SVG and CSS
// with no build step, embedded so that `tabula serve` needs nothing else.
// The players' rules pages (docs/rules, embedded by the root package) are
// served beside it under rules/, with rules/index.json listing which
// translations exist (so the page never has to probe for a missing file)
// and rules/diagrams.json the positions of the pages' diagrams, played by
// the rules engines (a generated file: go generate ./rulesdoc); the
// players' help pages (docs/help, e.g. how tournaments are scored) are
// served the same way under help/, with help/index.json; the lessons and
// puzzles of package learn are served under learn/.
package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/tabula-games/tabula"
	"github.com/tabula-games/tabula/learn"
)

//go:embed static
var static embed.FS

// App is the web application's file tree, to be served at the site's root
// (server.Config.Web).
func App() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic("web: " + err.Error()) // the embedded tree always has static/
	}
	return AppFrom(sub)
}

// AppFrom is App with the application's static files taken from fsys
// instead of the embedded copy (to serve a working copy while editing it).
func AppFrom(fsys fs.FS) fs.FS {
	return &appFS{static: fsys, rules: tabula.Rules, help: tabula.Help, learn: learn.Files(),
		index: pageIndex(tabula.Rules, "rules"), helpIndex: pageIndex(tabula.Help, "help")}
}

// appFS overlays the rules pages (tabula.Rules), the help pages
// (tabula.Help) and their indexes on the static files.
type appFS struct {
	static    fs.FS
	rules     fs.FS // holds the directory "rules"
	help      fs.FS // holds the directory "help"
	learn     fs.FS // the lessons and puzzles, served under learn/
	index     []byte
	helpIndex []byte
}

const (
	indexName     = "rules/index.json"
	helpIndexName = "help/index.json"
)

func (a *appFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	switch {
	case name == indexName:
		return &memFile{name: path.Base(name), r: bytes.NewReader(a.index), size: int64(len(a.index))}, nil
	case name == helpIndexName:
		return &memFile{name: path.Base(name), r: bytes.NewReader(a.helpIndex), size: int64(len(a.helpIndex))}, nil
	case name == "rules" || strings.HasPrefix(name, "rules/"):
		return a.rules.Open(name)
	case name == "help" || strings.HasPrefix(name, "help/"):
		return a.help.Open(name)
	case name == "learn":
		return a.learn.Open(".")
	case strings.HasPrefix(name, "learn/"):
		return a.learn.Open(strings.TrimPrefix(name, "learn/"))
	}
	return a.static.Open(name)
}

// pageIndex lists the pages of directory dir ("rules" or "help") by
// language: {"en":["sgolte",…],"ko":[…]}.
func pageIndex(fsys fs.FS, dir string) []byte {
	langs := map[string][]string{}
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".md" {
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		lang, file := "en", rel
		if dir, f, ok := strings.Cut(rel, "/"); ok {
			if strings.Contains(f, "/") {
				return nil
			}
			lang, file = dir, f
		}
		langs[lang] = append(langs[lang], strings.TrimSuffix(file, ".md"))
		return nil
	})
	for _, names := range langs {
		sort.Strings(names)
	}
	b, err := json.Marshal(langs)
	if err != nil {
		panic("web: " + err.Error())
	}
	return b
}

// memFile is a generated file.
type memFile struct {
	name string
	r    *bytes.Reader
	size int64
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Seek(off int64, whence int) (int64, error) {
	return f.r.Seek(off, whence)
}
func (f *memFile) Close() error { return nil }

// memFile is its own FileInfo.
func (f *memFile) Name() string       { return f.name }
func (f *memFile) Size() int64        { return f.size }
func (f *memFile) Mode() fs.FileMode  { return 0o444 }
func (f *memFile) ModTime() time.Time { return time.Time{} }
func (f *memFile) IsDir() bool        { return false }
func (f *memFile) Sys() any           { return nil }

var _ io.Seeker = (*memFile)(nil)
