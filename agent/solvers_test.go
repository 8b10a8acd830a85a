package agent

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/sploof/solve" // registers Sploof's solver
)

// TestTakenSolverIsReset: a solver given back to the pool and taken again
// (the collector held off, so that it can be the same one) solves a position in
// the nodes a new solver spends: the game before it does not change the
// next game's proofs, so a bot's moves depend on its position alone.
func TestTakenSolverIsReset(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	g, _ := game.Lookup("sploof")
	s, _ := g.New(game.Options{"first": "white"}, 1)
	rng := game.NewRNG(3)
	for ply := 0; ply < 18; ply++ {
		legal := s.Legal(nil)
		s.Play(legal[rng.IntN(len(legal))])
	}
	const size = 1 << 20
	first, err := takeSolver("sploof", size)
	if err != nil {
		t.Fatal(err)
	}
	want, err := first.Solve(context.Background(), s, 0)
	if err != nil || !want.Proven {
		t.Fatalf("a new solver: %+v %v", want, err)
	}
	// Under the race detector a sync.Pool drops a quarter of what it is
	// given, at random: give it back until it comes back.
	var again game.Solver
	for try := 0; try < 40 && again != first; try++ {
		putSolver("sploof", size, first)
		if again, err = takeSolver("sploof", size); err != nil {
			t.Fatal(err)
		}
	}
	if again != first {
		t.Fatal("the pool did not give the solver back: the test proves nothing")
	}
	got, err := again.Solve(context.Background(), s, 0)
	if err != nil || got.Nodes != want.Nodes || got.Winner != want.Winner || got.Plies != want.Plies {
		t.Fatalf("the solver taken again: %+v %v; new, it found %+v", got, err, want)
	}
}
