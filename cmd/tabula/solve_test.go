package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestSolveRealGames runs `tabula solve` on 20 positions from games between
// the bots (testdata/solve: hard against medium, a few plies before the
// decisive part of each game). Each must be proven, and its line, replayed
// by the rules engine, must end the game after exactly the plies announced
// with the announced winner.
func TestSolveRealGames(t *testing.T) {
	files, err := filepath.Glob("testdata/solve/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("%d positions in testdata/solve (%v), want 20", len(files), err)
	}
	g, err := game.Lookup("sploof")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		code, out, errs := tabula(t, "", "solve", "sploof", "--position", f, "--json", "--table", "16")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		var r solveResult
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v: %s", f, err, out)
		}
		if !r.Proven || r.Plies != len(r.Line) || r.Nodes <= 0 {
			t.Fatalf("%s: %s", f, out)
		}
		data, _ := os.ReadFile(f)
		s, err := g.ParsePosition(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range r.Line {
			if err := game.Play(s, m); err != nil {
				t.Fatalf("%s: line %v: %v", f, r.Line, err)
			}
		}
		o := s.Outcome()
		if seat := map[string]int{"white": 0, "black": 1}[r.Winner]; !o.Over() || !o.IsWinner(seat) {
			t.Fatalf("%s: the line %v ends %+v, not in a win for %s", f, r.Line, o, r.Winner)
		}
		if i == 0 { // the text form says the same
			code, out, _ := tabula(t, "", "solve", "sploof", "--position", f, "--table", "16")
			want := strings.ToUpper(r.Winner[:1]) + r.Winner[1:] + " wins in " + strconv.Itoa(r.Plies) + " plies\nline: " + strings.Join(r.Line, " ") + "\n"
			if code != 0 || !strings.HasPrefix(out, want) {
				t.Fatalf("%s: text %q, want it to start %q", f, out, want)
			}
		}
	}
}

// TestSolveBadInput: every mistake is one clear line on stderr and a
// non-zero exit, never a panic.
func TestSolveBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "missing GAME"},
		{[]string{"solve", "chess"}, "unknown game"},
		{[]string{"solve", "sgolte"}, "no exact solver for sgolte"},
		{[]string{"solve", "sploof", "--moves", "1c3 zz"}, "parse move"},
		{[]string{"solve", "sploof", "--moves", "2d4"}, "does not rest on four balls"},
		{[]string{"solve", "sploof", "-o", "bothlines=draw"}, "only the default rules"},
		{[]string{"solve", "sploof", "-o", "supply=unlimited"}, "only the default rules"},
		{[]string{"solve", "sploof", "--time", "0s"}, "--time"},
		{[]string{"solve", "sploof", "--table", "0"}, "--table"},
		{[]string{"solve", "sploof", "--position", "testdata/does-not-exist.json"}, "read position"},
	} {
		code, out, errs := tabula(t, "", c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want an error naming %q", c.args, code, out, errs, c.want)
		}
	}
	// A finished game (Black's line 2b6 2d4 1e3 2f2) has nothing to solve,
	// and a malformed position is refused.
	code, _, errs := tabula(t, "", "solve", "sploof", "--seed", "104", "--moves", "1e3 1c3 1c5 1e5 *1g7 *1a1 2d4 2f2 2b6")
	if code == 0 || !strings.Contains(errs, "game is over") || strings.Count(errs, "\n") != 1 {
		t.Errorf("a finished game: exit %d, %q", code, errs)
	}
	code, _, errs = tabula(t, `{"game":"sploof","levels":["WWWW"]}`, "solve", "sploof", "--position", "-")
	if code == 0 || !strings.Contains(errs, "levels") || strings.Count(errs, "\n") != 1 {
		t.Errorf("a malformed position: exit %d, %q", code, errs)
	}
}

// TestSolveUnprovenSaysSo: a position too deep for the budget is reported as
// unsolved, not as a result.
func TestSolveUnprovenSaysSo(t *testing.T) {
	code, out, errs := tabula(t, "", "solve", "sploof", "--time", "50ms", "--table", "16")
	if code != 0 || !strings.HasPrefix(out, "unsolved: no proof within 50ms\n") || !strings.Contains(out, "nodes: ") {
		t.Fatalf("exit %d, %q, %q", code, out, errs)
	}
	code, out, _ = tabula(t, "", "solve", "sploof", "--time", "50ms", "--table", "16", "--json")
	var r solveResult
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Proven || r.Winner != "" || r.Line != nil {
		t.Fatalf("json: exit %d, %q", code, out)
	}
}

// TestSolveDatabase: `tabula solve sploof --build DIR` on a position from a
// real game builds its layered database and prints the same result as the
// search; `--verify DIR` accepts it, and refuses it once a value is
// changed; --upto stops the forward sweep and says the position is not
// solved.
func TestSolveDatabase(t *testing.T) {
	pos := "testdata/solve/game03-ply24.json"
	code, out, errs := tabula(t, "", "solve", "sploof", "--position", pos, "--json", "--table", "16")
	var r solveResult
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.Proven {
		t.Fatalf("search: exit %d, %q, %q", code, out, errs)
	}
	want := "solved: " + strings.ToUpper(r.Winner[:1]) + r.Winner[1:] + " wins in " + strconv.Itoa(r.Plies) + " plies\n"

	dir := t.TempDir()
	code, out, errs = tabula(t, "", "solve", "sploof", "--position", pos, "--build", dir, "--upto", "26", "--mem", "16")
	if code != 0 || !strings.Contains(out, "layer 26:") || strings.Contains(out, "layer 27:") || !strings.HasSuffix(out, "not solved\n") {
		t.Fatalf("--upto 26: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = tabula(t, "", "solve", "sploof", "--position", pos, "--build", dir, "--mem", "16")
	if code != 0 || strings.Contains(out, "layer 26:") || !strings.Contains(out, "values 24:") || !strings.HasSuffix(out, want) {
		t.Fatalf("--build: exit %d, %q, %q; want it to end %q", code, out, errs, want)
	}
	code, out, errs = tabula(t, "", "solve", "sploof", "--verify", dir)
	if code != 0 || !strings.Contains(out, "values 24: 1 positions re-derived from layer 25, all equal") ||
		!strings.HasSuffix(out, "root: the side to move loses in "+strconv.Itoa(r.Plies)+"\n") {
		t.Fatalf("--verify: exit %d, %q, %q", code, out, errs)
	}
	path := filepath.Join(dir, "layer-30.vals")
	vals, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vals[0] ^= 2
	os.WriteFile(path, vals, 0o644)
	code, _, errs = tabula(t, "", "solve", "sploof", "--verify", dir)
	if code == 0 || !strings.Contains(errs, "layer 30: the values' checksum") {
		t.Fatalf("a corrupt value file: exit %d, %q", code, errs)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "sploof", "--build", dir, "--mem", "1"}, "--mem"},
		{[]string{"solve", "sploof", "--build", dir, "--upto", "-1"}, "--upto"},
		{[]string{"solve", "sploof", "--build", dir}, "another position"},
		{[]string{"solve", "sploof", "--verify", t.TempDir()}, "no root.json"},
		{[]string{"solve", "sgolte", "--build", dir}, "only sploof"},
	} {
		code, _, errs := tabula(t, "", c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want an error naming %q", c.args, code, errs, c.want)
		}
	}
}
