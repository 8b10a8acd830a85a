package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/arena"
	"github.com/tabula-games/tabula/game"
)

// The starter bots of examples/bots (issue 26, item 4) pass tabula bot
// check, play a whole game of every game against random, from each seat,
// through the arena, and play one game of every game on a server through
// the connector (starters_server_test.go). Python and Node must be
// installed: a missing one fails the test, so that CI cannot pass without
// trying the bot.
func TestStarterBots(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "examples", "bots"))
	if err != nil {
		t.Fatal(err)
	}
	goBot := filepath.Join(t.TempDir(), "starter-go")
	starters := []struct{ name, needs, spec string }{
		{"python", "python3", fmt.Sprintf("exec:python3 %q", filepath.Join(root, "python", "bot.py"))},
		{"node", "node", fmt.Sprintf("exec:node %q", filepath.Join(root, "node", "bot.js"))},
		{"go", "go", fmt.Sprintf("exec:%q", goBot)},
	}
	for _, st := range starters {
		t.Run(st.name, func(t *testing.T) {
			if _, err := exec.LookPath(st.needs); err != nil {
				t.Fatalf("%s is not installed (not on PATH): the starter bot in examples/bots/%s cannot be tested without it", st.needs, st.name)
			}
			if st.name == "go" {
				if out, err := exec.Command("go", "build", "-o", goBot, filepath.Join(root, "go")).CombinedOutput(); err != nil {
					t.Fatalf("go build examples/bots/go: %v\n%s", err, out)
				}
			}
			code, out, errs := tabula(t, "", "bot", "check", "--engine", st.spec)
			if code != 0 || !strings.Contains(out, "passed: ") {
				t.Fatalf("tabula bot check: exit %d, %s\n%s", code, errs, out)
			}
			for _, name := range allGames {
				g, _ := game.Lookup(name)
				res, err := arena.Run(context.Background(), arena.Config{Game: g, Agents: []string{st.spec, "random"}, Games: 2, Seed: 5})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(res.Games) != 2 || res.Forfeits != 0 {
					for _, gr := range res.Games {
						t.Logf("%s game %d: %s", name, gr.Index, gr.Forfeit)
					}
					t.Errorf("%s: %d games, %d forfeits: want 2 whole games", name, len(res.Games), res.Forfeits)
				}
			}
			t.Run("server", func(t *testing.T) { starterPlaysOnServer(t, st.spec) })
		})
	}
}
