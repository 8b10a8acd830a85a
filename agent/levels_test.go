package agent

import (
	"context"
	"slices"
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/all"
)

// Every level in LevelOrder is an agent of every game, and the calibrated
// levels are iteration budgets (a time budget would play weaker on a
// loaded machine than where it was measured), each seeded search playing
// the same move twice.
func TestLevelsAreAgentsOfEveryGame(t *testing.T) {
	for _, name := range game.Names() {
		g, err := game.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range LevelOrder {
			if !IsLevel(level) {
				t.Errorf("%s is not a level", level)
			}
			if !slices.Contains(Kinds(), level) {
				t.Errorf("Kinds leaves %s out", level)
			}
			if level == "medium" || level == "hard" {
				continue // time budgets: a second's search per test is too slow here
			}
			cfg := Levels[level]
			if isHidden(g) {
				cfg = SamplingLevels[level]
			}
			if cfg.Iters <= 0 || cfg.Time != 0 {
				t.Errorf("%s %s: %+v, want an iteration budget", name, level, cfg)
			}
			var moves []game.Move
			for range 2 {
				a, err := New(level, g, 7)
				if err != nil {
					t.Fatalf("%s %s: %v", name, level, err)
				}
				s, err := g.New(nil, 3)
				if err != nil {
					t.Fatal(err)
				}
				m, err := Ask(context.Background(), a, s)
				if err != nil {
					t.Fatalf("%s %s: %v", name, level, err)
				}
				moves = append(moves, m)
			}
			if moves[0] != moves[1] {
				t.Errorf("%s %s: seed 7 played %v then %v", name, level, moves[0], moves[1])
			}
		}
	}
}
