package wire_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestImportsOnlyTheStandardLibrary: a Go client of the API imports this
// package and nothing else of Tabula — not the engines (agent, match,
// analysis), not the store. Every package it depends on, transitively, is
// the standard library's.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	// go test puts its own GOROOT/bin first on the test's PATH; the test
	// binary knows its GOROOT only when built without -trimpath (.ci/run
	// builds with it).
	goTool := "go"
	if root := runtime.GOROOT(); root != "" {
		goTool = filepath.Join(root, "bin", "go")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	self := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		switch {
		case path == "github.com/tabula-games/tabula/server/wire":
			self++
		case std != "true":
			t.Errorf("wire depends on %s, which is not the standard library", path)
		}
	}
	if self != 1 {
		t.Fatalf("go list did not list wire itself:\n%s", out)
	}
}
