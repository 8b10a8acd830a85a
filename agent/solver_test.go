package agent

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
	_ "github.com/tabula-games/tabula/games/sploof/solve" // registers Sploof's solver
)

// provenMoves solves every child of s with a fresh solver and returns, per
// legal move, whether the mover wins after it and in how many plies from s
// the game then ends with best play.
func provenMoves(t *testing.T, s game.State) map[game.Move][2]int {
	t.Helper()
	sv, err := game.NewSolver("sploof", 1<<22)
	if err != nil {
		t.Fatal(err)
	}
	mover := s.ToMove()
	out := map[game.Move][2]int{}
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		c.Play(m)
		if o := c.Outcome(); o.Over() {
			win := 0
			if o.IsWinner(mover) {
				win = 1
			}
			out[m] = [2]int{win, 1}
			continue
		}
		sol, err := sv.Solve(context.Background(), c, 0)
		if err != nil || !sol.Proven {
			t.Fatalf("child %s: %+v %v", s.FormatMove(m), sol, err)
		}
		win := 0
		if sol.Winner == mover {
			win = 1
		}
		out[m] = [2]int{win, sol.Plies + 1}
	}
	return out
}

// TestHardBotPlaysProvenPositionsPerfectly: Sploof positions from random
// games where the side to move has a forced win but not every move wins,
// and positions where every move loses. A bot whose search is one iteration
// (it knows nothing) but with the solver on plays a winning move, and the
// fastest; when lost, a move that holds out longest. The same bot with
// solver=off does not: the positions test something.
func TestHardBotPlaysProvenPositionsPerfectly(t *testing.T) {
	g := sploof.Game{}
	wins, losses, offMissed := 0, 0, 0
	for seed := uint64(1); (wins < 8 || losses < 4) && seed < 200; seed++ {
		st, _ := g.New(game.Options{"first": "white"}, 1)
		rng := game.NewRNG(seed)
		var hist []game.State
		for !st.Outcome().Over() {
			hist = append(hist, st.Clone())
			legal := st.Legal(nil)
			st.Play(legal[rng.IntN(len(legal))])
		}
		// Late positions: the solver proves them within its default budget.
		for i := max(len(hist)-8, 0); i < len(hist)-1; i++ {
			s := hist[i]
			pm := provenMoves(t, s)
			bestWin, longestLoss, winning := 1000, 0, 0
			for _, v := range pm {
				if v[0] == 1 {
					winning++
					bestWin = min(bestWin, v[1])
				} else {
					longestLoss = max(longestLoss, v[1])
				}
			}
			lost := winning == 0
			if winning == len(pm) || (lost && losses >= 4) || (!lost && wins >= 8) {
				continue
			}
			on, err := New("hard:iters=1,workers=1", g, seed)
			if err != nil {
				t.Fatal(err)
			}
			m, err := on.Choose(context.Background(), seen(s))
			if err != nil {
				t.Fatal(err)
			}
			if !on.(*MCTS).LastStats.Proven {
				t.Fatalf("seed %d ply %d: the solver did not prove the position", seed, i)
			}
			got := pm[m]
			if lost {
				if got[1] != longestLoss {
					t.Errorf("seed %d ply %d: lost, played %s (game over in %d), the longest resistance is %d",
						seed, i, s.FormatMove(m), got[1], longestLoss)
				}
				losses++
			} else {
				if got[0] != 1 || got[1] != bestWin {
					t.Errorf("seed %d ply %d: played %s (wins %v, in %d), the fastest win is in %d",
						seed, i, s.FormatMove(m), got[0] == 1, got[1], bestWin)
				}
				wins++
			}
			off, err := New("hard:iters=1,workers=1,solver=off", g, seed)
			if err != nil {
				t.Fatal(err)
			}
			m, err = off.Choose(context.Background(), seen(s))
			if err != nil {
				t.Fatal(err)
			}
			if off.(*MCTS).LastStats.Proven || off.(*MCTS).LastStats.SolverNodes != 0 {
				t.Fatalf("solver=off used the solver")
			}
			if got := pm[m]; !lost && got[0] == 0 {
				offMissed++
			}
		}
	}
	if wins < 8 || losses < 4 {
		t.Fatalf("found %d won and %d lost positions, want 8 and 4", wins, losses)
	}
	if offMissed == 0 {
		t.Fatal("without the solver the bot found every win too: the positions prove nothing")
	}
	t.Logf("%d won positions (the bot without solver missed %d), %d lost", wins, offMissed, losses)
}

// TestSolverOptionSpelling: hard has the solver on, solver=off turns it
// off, mcts has it off unless asked for.
func TestSolverOptionSpelling(t *testing.T) {
	g := sploof.Game{}
	for spec, want := range map[string]bool{
		"hard": true, "hard:solver=off": false, "hard:iters=100": true, "mcts": false,
		"mcts:solver=on,solvernodes=1000": true, "medium": false,
	} {
		a, err := New(spec, g, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.(*MCTS).cfg.Solver; got != want {
			t.Errorf("%s: solver %v, want %v", spec, got, want)
		}
	}
	for _, bad := range []string{"hard:solver=maybe", "hard:solvernodes=0", "hard:solvernodes=x"} {
		if _, err := New(bad, g, 1); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
