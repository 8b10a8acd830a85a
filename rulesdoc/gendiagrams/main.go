// Command gendiagrams writes docs/rules/diagrams.json: every diagram of the
// rules pages, played by the rules engines (rulesdoc.Build). Run it with
// `go generate ./rulesdoc` after changing a diagram; rulesdoc's tests fail
// while the file is out of date.
//
// Usage: gendiagrams DOCS, DOCS being the directory that holds rules/.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tabula-games/tabula/rulesdoc"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendiagrams DOCS (the directory that holds rules/)")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gendiagrams:", err)
		os.Exit(1)
	}
}

func write(docs string) error {
	b, err := rulesdoc.Build(os.DirFS(docs))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(docs, filepath.FromSlash(rulesdoc.DiagramsFile)), b, 0o644)
}
