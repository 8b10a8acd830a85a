package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveWinLoss: `tabula solve sploof --winloss` names the winner that
// `tabula solve` names; with --checkpoint it keeps its decisions in a file
// that a second run loads, and --strategy writes a proof that --check
// accepts; bad flags are one-line errors.
func TestSolveWinLoss(t *testing.T) {
	pos := "testdata/solve/game03-ply24.json"
	code, out, errs := tabula(t, "", "solve", "sploof", "--position", pos, "--json", "--table", "16")
	var exact solveResult
	if code != 0 || json.Unmarshal([]byte(out), &exact) != nil || !exact.Proven {
		t.Fatalf("solve: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = tabula(t, "", "solve", "sploof", "--position", pos, "--winloss", "--json", "--table", "16", "--workers", "2")
	var wl wlResult
	if code != 0 || json.Unmarshal([]byte(out), &wl) != nil || !wl.Decided || wl.Winner != exact.Winner {
		t.Fatalf("--winloss: exit %d, %q, %q; the exact search says %s wins", code, out, errs, exact.Winner)
	}

	dir := t.TempDir()
	ck := filepath.Join(dir, "ck.gz")
	strat := filepath.Join(dir, "strategy.gz")
	args := []string{"solve", "sploof", "--position", pos, "--winloss", "--table", "16", "--checkpoint", ck, "--ckply", "28",
		"--layers", filepath.Join(dir, "layers"), "--strategy", strat}
	code, out, errs = tabula(t, "", args...)
	if code != 0 || !strings.Contains(out, capitalise(exact.Winner)+" wins\n") || !strings.Contains(out, "layer 28:") || !strings.Contains(out, "strategy: ") {
		t.Fatalf("--checkpoint: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = tabula(t, "", append(args, "--json")...)
	if code != 0 || json.Unmarshal([]byte(out), &wl) != nil || !wl.Decided || wl.Winner != exact.Winner || wl.Layer != 28 || wl.Decisions == 0 {
		t.Fatalf("--checkpoint again: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = tabula(t, "", "solve", "sploof", "--check", strat)
	if code != 0 || !strings.Contains(out, "checked: ") || !strings.Contains(out, "every leaf") {
		t.Fatalf("--check: exit %d, %q, %q", code, out, errs)
	}
	// With --progress twice: the second run proves no leaf again.
	progress := filepath.Join(dir, "progress.gz")
	code, out, errs = tabula(t, "", "solve", "sploof", "--check", strat, "--progress", progress)
	if code != 0 || !strings.Contains(out, "\n0 of ") || !strings.Contains(out, "every leaf") {
		t.Fatalf("--check --progress: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = tabula(t, "", "solve", "sploof", "--check", strat, "--progress", progress)
	if code != 0 || strings.Contains(out, "\n0 of ") || !strings.Contains(out, "(0 nodes)") {
		t.Fatalf("--check --progress again: exit %d, %q, %q", code, out, errs)
	}
	code, out, errs = tabula(t, "", "solve", "sploof", "--check", strat, "--within", "42")
	if code != 0 || !strings.Contains(out, "every leaf of ") || !strings.Contains(out, "proved won by ply 42") {
		t.Fatalf("--check --within 42: exit %d, %q, %q", code, out, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "sploof", "--winloss", "--workers", "-1"}, "--workers"},
		{[]string{"solve", "sploof", "--within", "40"}, "--within goes with --check"},
		{[]string{"solve", "sploof", "--check", strat, "--within", "28"}, "a ply after the leaves' (28)"},
		{[]string{"solve", "sploof", "--check", strat, "--within", "43"}, "at most 42"},
		{[]string{"solve", "sploof", "--check", strat, "--within", "41", "--progress", progress}, "wins by ply 0, not by ply 41"},
		{[]string{"solve", "sploof", "--winloss", "--every", "0s", "--checkpoint", ck}, "--every"},
		{[]string{"solve", "sploof", "--layers", dir}, "--layers goes with --checkpoint"},
		{[]string{"solve", "sploof", "--sample", "3"}, "--sample goes with --check"},
		{[]string{"solve", "sploof", "--progress", ck}, "--progress goes with --check"},
		{[]string{"solve", "sploof", "--check", strat, "--progress", ck, "--sample", "2"}, "does not go with --sample"},
		{[]string{"solve", "sploof", "--check", strat, "--progress", strat}, "progress file"},
		{[]string{"solve", "sploof", "--check", ck}, "not a strategy file"},
		{[]string{"solve", "sploof", "--winloss", "--build", dir}, "do not go with --build"},
		{[]string{"solve", "sgolte", "--winloss"}, "only sploof"},
		{[]string{"solve", "sploof", "--position", pos, "--checkpoint", strat, "--ckply", "28", "--layers", filepath.Join(dir, "layers")}, "not a Sploof win/loss checkpoint"},
	} {
		code, _, errs := tabula(t, "", c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want an error naming %q", c.args, code, errs, c.want)
		}
	}
}
