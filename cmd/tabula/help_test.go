package main

import (
	"regexp"
	"strings"
	"testing"
)

// --help lists every flag of a command with its description (issue 17:
// serve and play printed only their usage line).
func TestHelpListsEveryFlag(t *testing.T) {
	want := map[string][]string{
		"serve": {"addr", "db", "web", "log", "log-level", "rate", "signup-rate", "ws-rate", "bot-delay", "bot-cores", "secure-cookies"},
		"play":  {"o", "p1", "p2", "p8", "seed", "record", "moves", "position"},
	}
	line := regexp.MustCompile(`^  (--?[a-z0-9-]+)( [A-Z]+)?\s+(\S.*)$`)
	for _, c := range commands() {
		code, out, errs := tabula(t, "", c.name, "--help")
		if code != 0 || out != "" {
			t.Fatalf("%s --help: exit %d, stdout %q", c.name, code, out)
		}
		listed := map[string]bool{}
		for _, l := range strings.Split(errs, "\n")[1:] {
			if l == "" || strings.HasPrefix(l, "-o key=value") {
				continue
			}
			m := line.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("%s --help: a flag line without a description: %q", c.name, l)
				continue
			}
			listed[strings.TrimLeft(m[1], "-")] = true
		}
		if len(listed) == 0 {
			t.Errorf("%s --help lists no flags:\n%s", c.name, errs)
		}
		for _, f := range want[c.name] {
			if !listed[f] {
				t.Errorf("%s --help does not list --%s:\n%s", c.name, f, errs)
			}
		}
	}
}

// Before a human's move, play says whose turn it is once: the game's own
// drawing or the status line, and a bare prompt (it said it up to three
// times: "Black (X) to move.", "black to move.", "black> ").
func TestPlaySaysWhoseTurnOnce(t *testing.T) {
	toMove := regexp.MustCompile(`(?i)to move\.?$`)
	for _, g := range allGames {
		code, out, errs := tabula(t, "quit\n", "play", g, "--p2", "random")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", g, code, errs)
		}
		before, _, found := strings.Cut(out, "> ")
		if !found {
			t.Fatalf("%s: no prompt in %q", g, out)
		}
		n := 0
		for _, l := range strings.Split(before, "\n") {
			if toMove.MatchString(strings.TrimSpace(l)) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: the turn is said %d times before the prompt:\n%s", g, n, before)
		}
	}
}
