package agent

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

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
			cfg := levelConfig(name, level, isHidden(g))
			if level == "medium" || level == "hard" {
				// An iteration budget, with a time cap where the game's
				// search is long (not played here: a second's search per
				// test is too slow).
				if cfg.Iters <= 0 {
					t.Errorf("%s %s: %+v, want an iteration budget", name, level, cfg)
				}
				continue
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

// medium and hard in the games searched by UCT are their game's iteration
// budgets (what was calibrated), each capped in time; a spec that gives
// the iterations alone is that budget without the cap — the spelling the
// calibration logs use — and one that gives a time alone drops the
// iterations.
func TestTopLevelsAreTheirGamesIterations(t *testing.T) {
	for _, name := range []string{"sgolte", "sploof", "skjuub"} {
		g, err := game.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []string{"medium", "hard"} {
			want := topLevels[name][level]
			want.Workers = max(want.Workers, 1) // NewMCTS's default
			if want.Iters <= 0 || want.Time <= 0 {
				t.Fatalf("%s %s: %+v, want iterations and a cap", name, level, want)
			}
			a, err := New(level, g, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.(*MCTS).cfg; got.Iters != want.Iters || got.Time != want.Time || got.Workers != want.Workers {
				t.Errorf("%s %s: %+v, want %+v", name, level, got, want)
			}
			a, err = New(level+":iters="+strconv.Itoa(want.Iters), g, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.(*MCTS).cfg; got.Iters != want.Iters || got.Time != 0 || got.Workers != want.Workers || got.Solver != want.Solver {
				t.Errorf("%s %s:iters=%d: %+v", name, level, want.Iters, got)
			}
			a, err = New(level+":time=1s", g, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.(*MCTS).cfg; got.Iters != 0 || got.Time != time.Second {
				t.Errorf("%s %s:time=1s: %+v", name, level, got)
			}
		}
	}
	if a, _ := New("medium", mustGame(t, "sploof"), 1); a.(*MCTS).cfg.Iters == topLevels["sgolte"]["medium"].Iters {
		t.Error("Sploof's medium took Sgolte's budget")
	}
}

func mustGame(t *testing.T, name string) game.Game {
	t.Helper()
	g, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Skjuub's medium and hard levels give a node its moves a block at a time
// (their trees otherwise stop expanding early in the game); the other
// games' levels do not, and edges=all still turns it off.
func TestSkjuubLevelsGetEdgesInBlocks(t *testing.T) {
	for _, c := range []struct {
		game, level string
		blocks      bool
	}{
		{"skjuub", "hard", true}, {"skjuub", "medium", true}, {"skjuub", "strong", false},
		{"sploof", "hard", false}, {"sgolte", "hard", false},
	} {
		if cfg, ok := LevelConfig(c.game, c.level); !ok || cfg.EdgeBlocks != c.blocks {
			t.Errorf("%s %s: EdgeBlocks %v, want %v", c.game, c.level, cfg.EdgeBlocks, c.blocks)
		}
	}
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	for spec, blocks := range map[string]bool{"hard": true, "hard:edges=all": false, "medium:edges=all": false} {
		a, err := New(spec, g, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.(*MCTS).cfg.EdgeBlocks; got != blocks {
			t.Errorf("skjuub %s: EdgeBlocks %v, want %v", spec, got, blocks)
		}
	}
}

// A level asks for the exact solver only in a game that has one: in the
// others the flag did nothing and read as if the game had a solver (Sgolte's
// and Skjuub's hard levels set it until December 2026).
func TestLevelsAskForTheSolverOnlyWhereThereIsOne(t *testing.T) {
	asked := 0
	for name, levels := range topLevels {
		for level, cfg := range levels {
			if !cfg.Solver {
				continue
			}
			asked++
			if !game.HasSolver(name) {
				t.Errorf("%s %s asks for the exact solver, and %s has none", name, level, name)
			}
		}
	}
	if asked == 0 {
		t.Error("no level asks for the exact solver: Sploof's hard should")
	}
}
