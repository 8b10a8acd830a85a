package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/analysis"
)

// TestAnalyseJSON: `tabula analyse --json` prints one report a line, the
// last done, with the best lines; a position the solver proves says so in
// words and in JSON.
func TestAnalyseJSON(t *testing.T) {
	code, out, errs := tabula(t, "", "analyse", "sgolte", "--moves", "e5", "--iters", "5000", "--workers", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last analysis.Report
	for i, l := range lines {
		var r analysis.Report
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		if r.Done != (i == len(lines)-1) {
			t.Fatalf("line %d of %d: done %v", i, len(lines), r.Done)
		}
		last = r
	}
	if last.Game != "sgolte" || last.Seat != "white" || len(last.Lines) != 3 || last.Iterations < 5000 {
		t.Fatalf("last report %+v", last)
	}

	code, out, errs = tabula(t, "", "analyse", "sploof", "--position", "testdata/solve/game01-ply18.json", "--iters", "20000", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"black to move: black wins 100%\n", "proven: Black wins in 9 plies: ", "\n1. ", "\n3. ", "iterations"} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}

	// Sploof's start, White first: solved ahead of time, Black wins; after
	// White's move, the proof's answer.
	code, out, errs = tabula(t, "", "analyse", "sploof", "-o", "first=white", "--moves", "1c3", "--iters", "200", "--workers", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"black to move: black wins 100%\n", "solved: black wins with best play (the proof from the start, docs/solving.md); the proof plays "} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestAnalyseRefuses: bad input gets one clear line and a failing exit.
func TestAnalyseRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"analyse", "skyjo"}, "hides information"},
		{[]string{"analyse", "sploof", "--lines", "0"}, "--lines 1…50"},
		{[]string{"analyse", "sploof", "--time", "0s"}, "--time"},
		{[]string{"analyse", "sploof", "--moves", "zz"}, "zz"},
		{[]string{"review", "sploof", "--iters", "0"}, "--iters"},
	} {
		code, _, errs := tabula(t, "", c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Fatalf("%v: exit %d, %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

// TestReviewCommand: `tabula review` judges every move of the given moves;
// Skyjo's review says it used only each player's own view.
func TestReviewCommand(t *testing.T) {
	code, out, errs := tabula(t, "", "review", "sgolte", "--moves", "e5 d4 f6 c3", "--iters", "300", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rv analysis.Review
	if err := json.Unmarshal([]byte(out), &rv); err != nil {
		t.Fatal(err, out)
	}
	if len(rv.Moves) != 4 || len(rv.Points) != 5 || rv.Moves[2].Move != "f6" {
		t.Fatalf("review %+v", rv)
	}
	code, out, errs = tabula(t, "", "review", "skyjo", "--moves", "flip a1 flip b2", "--worlds", "4")
	if code != 0 {
		t.Fatalf("skyjo: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "each decision judged from its player's own view only") || !strings.Contains(out, "inaccuracies") {
		t.Fatalf("skyjo review:\n%s", out)
	}
}
