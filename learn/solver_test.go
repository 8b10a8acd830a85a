package learn_test

import (
	"context"
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof/solve"
	"github.com/tabula-games/tabula/learn"
)

// TestSploofPuzzlesAgreeWithTheSolver checks every Sploof puzzle a second
// way, with the exact solver (games/sploof/solve, alpha-beta over its own
// bitboards, nothing shared with learn's prover): the side to move wins
// in exactly the puzzle's plies with best play, and after any other move
// it either loses or needs more plies. Positions early in a game take the
// solver long (it solves to the end of the game, not to the puzzle's depth),
// so a puzzle whose position is not solved within budget nodes is left to
// TestPuzzles; -solverbudget 0 checks them all (about ten minutes).
//
// With -short (as .ci/run runs it) a quarter of the puzzles, a different
// quarter each run (every puzzle whose index is a random residue modulo
// 4, named in the log), so that four runs cover them all: the whole check
// takes some 20 CPU seconds, and learn's own prover (TestPuzzles) still
// checks every puzzle every run.
var solverBudget = flag.Int64("solverbudget", 200000, "nodes the solver may spend on a puzzle's position (0: no limit)")

func TestSploofPuzzlesAgreeWithTheSolver(t *testing.T) {
	ps, err := learn.LoadPuzzles(learn.Files(), "sploof")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := game.Lookup("sploof")
	sv := solve.New(4 << 20)
	skipped, checked := 0, 0
	share, part := 1, 0
	if testing.Short() {
		share, part = 4, rand.IntN(4)
		t.Logf("-short: the puzzles whose index is %d modulo %d", part, share)
	}
	for i, pz := range ps.Puzzles {
		if i%share != part {
			continue
		}
		checked++
		s, err := g.ParsePosition(pz.Position)
		if err != nil {
			t.Fatal(err)
		}
		me := s.ToMove()
		sol, err := sv.Solve(context.Background(), s, *solverBudget)
		if err == nil && !sol.Proven {
			skipped++
			continue
		}
		if err != nil || sol.Winner != me || sol.Plies != pz.Plies {
			t.Errorf("%s: the solver says winner %d in %d plies (proven %v, %v); the puzzle: seat %d in %d", pz.ID, sol.Winner, sol.Plies, sol.Proven, err, me, pz.Plies)
			continue
		}
		for _, m := range s.Legal(nil) {
			mv := s.FormatMove(m)
			c := s.Clone()
			c.Play(m)
			won := c.Outcome().Over() && c.Outcome().IsWinner(me)
			if !c.Outcome().Over() {
				sub, err := sv.Solve(context.Background(), c, 0)
				if err != nil || !sub.Proven {
					t.Fatalf("%s after %s: not solved: %v", pz.ID, mv, err)
				}
				won = sub.Winner == me && 1+sub.Plies <= pz.Plies
			}
			if won != (mv == pz.Line[0]) {
				t.Errorf("%s: after %s the solver says the side to move wins within %d plies: %v", pz.ID, mv, pz.Plies, won)
			}
		}
	}
	t.Logf("%d of %d puzzles checked, %d past the budget", checked-skipped, len(ps.Puzzles), skipped)
}
