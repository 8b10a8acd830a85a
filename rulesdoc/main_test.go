package rulesdoc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the tests in the pages' own directory, docs/rules, where
// they read each page by the name the pages link to it with (and the
// interface strings at ../../web/static/js/lang).
func TestMain(m *testing.M) {
	if err := os.Chdir(filepath.Join("..", "docs", "rules")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// TestDiagramsFileUpToDate: docs/rules/diagrams.json, which the web page
// serves, is what the pages' diagrams resolve to today; after a change to
// a diagram or to a game's rules, `go generate ./rulesdoc` writes it again.
func TestDiagramsFileUpToDate(t *testing.T) {
	want, err := Build(os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Base(DiagramsFile))
	if err != nil {
		t.Fatalf("%v: run go generate ./rulesdoc", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		if i >= len(gl) || i >= len(wl) || gl[i] != wl[i] {
			t.Fatalf("docs/%s is out of date at line %d: run go generate ./rulesdoc", DiagramsFile, i+1)
		}
	}
}
