package solve

import (
	"context"
	"slices"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// bruteValue is plain minimax over the rules engine (Legal, Play, Outcome):
// no table, no symmetry, no ordering, nothing shared with the solver. It
// returns whether the side to move wins and how many plies the rest of the
// game lasts when the winner takes the fastest win and the loser the
// longest resistance. budget counts down the positions visited; ok is false
// when it runs out.
func bruteValue(s *sploof.State, budget *int) (moverWins bool, plies int, ok bool) {
	*budget--
	if *budget < 0 {
		return false, 0, false
	}
	mover := s.ToMove()
	bestWin, longestLoss := -1, -1
	for _, m := range s.Legal(nil) {
		c := *s
		c.Play(m)
		var win bool
		var p int
		if o := c.Outcome(); o.Over() {
			win, p = o.IsWinner(mover), 1
		} else {
			childWins, cp, ok := bruteValue(&c, budget)
			if !ok {
				return false, 0, false
			}
			win, p = !childWins, cp+1
		}
		if win && (bestWin < 0 || p < bestWin) {
			bestWin = p
		}
		if !win && p > longestLoss {
			longestLoss = p
		}
	}
	if bestWin >= 0 {
		return true, bestWin, true
	}
	return false, longestLoss, true
}

// gamePositions plays a uniformly random game from the start and returns
// every position before its end, first one first.
func gamePositions(seed uint64) []*sploof.State {
	st, _ := sploof.Game{}.New(game.Options{"first": "white"}, 1)
	s := st.(*sploof.State)
	rng := game.NewRNG(seed)
	var out []*sploof.State
	var buf []game.Move
	for !s.Outcome().Over() {
		c := *s
		out = append(out, &c)
		buf = s.Legal(buf[:0])
		s.Play(buf[rng.IntN(len(buf))])
	}
	return out
}

// checkLine replays a solution's line with the rules engine: it must be
// legal, and end the game after exactly Plies moves with Winner winning.
func checkLine(t *testing.T, s *sploof.State, sol game.Solution) {
	t.Helper()
	if len(sol.Line) != sol.Plies {
		t.Fatalf("line of %d moves for a game of %d plies", len(sol.Line), sol.Plies)
	}
	c := *s
	for i, m := range sol.Line {
		if c.Outcome().Over() || !game.IsLegal(&c, m) {
			t.Fatalf("line move %d (%v) is not legal", i+1, m)
		}
		c.Play(m)
	}
	if o := c.Outcome(); !o.Over() || !o.IsWinner(sol.Winner) {
		t.Fatalf("the line ends with %+v, want a win for seat %d", o, sol.Winner)
	}
}

// TestSolverAgreesWithBruteForce compares the solver with plain minimax on
// positions small enough for minimax (its whole tree under 30,000
// positions), taken from random games at every stage the bound allows.
func TestSolverAgreesWithBruteForce(t *testing.T) {
	want := 1000
	if testing.Short() {
		want = 200
	}
	shared := New(1 << 20) // a small table, so that entries get replaced
	checked, wins := 0, 0
	hist := map[int]int{}
	for seed := uint64(1); checked < want; seed++ {
		ps := gamePositions(seed)
		// From the end backwards, while minimax stays affordable.
		for i := len(ps) - 1; i >= 0 && checked < want; i-- {
			s := ps[i]
			budget := 30000
			mw, plies, ok := bruteValue(s, &budget)
			if !ok {
				break
			}
			if plies == 1 && i%4 != 0 {
				continue // wins in one are most positions near the end; keep a few
			}
			sv := shared
			if checked%4 == 0 {
				sv = New(1 << 16) // and now and then a fresh one
			}
			sol, err := sv.Solve(context.Background(), s, 0)
			if err != nil || !sol.Proven {
				t.Fatalf("seed %d ply %d: %v, proven %v", seed, i, err, sol.Proven)
			}
			wantWinner := s.ToMove()
			if !mw {
				wantWinner = 1 - wantWinner
			}
			if sol.Winner != wantWinner || sol.Plies != plies {
				t.Fatalf("seed %d ply %d: solver says seat %d wins in %d, minimax seat %d in %d",
					seed, i, sol.Winner, sol.Plies, wantWinner, plies)
			}
			checkLine(t, s, sol)
			checked++
			hist[plies]++
			if mw {
				wins++
			}
		}
	}
	// Both results must be well represented, or the test proves little.
	if wins < checked/5 || wins > checked*4/5 {
		t.Fatalf("%d of %d positions are wins for the side to move: a lopsided test set", wins, checked)
	}
	t.Logf("%d positions agree (%d won for the side to move); plies left: %v", checked, wins, hist)
}

// TestSearchDoesNotAllocate: the search's hot loop (every node below the
// root) allocates nothing.
func TestSearchDoesNotAllocate(t *testing.T) {
	ps := gamePositions(7)
	s := ps[len(ps)-12]
	n, err := nodeFromBits(s.Bits())
	if err != nil {
		t.Fatal(err)
	}
	sv := New(1 << 20)
	sv.start(context.Background(), 0)
	allocs := testing.AllocsPerRun(20, func() {
		sv.tt.clear()
		sv.search(&n, -1, 1)
	})
	if sv.nodes < 1000 {
		t.Fatalf("only %d nodes searched: the position proves nothing", sv.nodes)
	}
	if allocs != 0 {
		t.Fatalf("%v allocations per search", allocs)
	}
}

// TestResetForgets: after Reset a solver that has solved other positions
// solves one as a new solver does — the same answer in the same nodes —
// where without it the table it kept makes the work differ.
func TestResetForgets(t *testing.T) {
	ps := gamePositions(11)
	p, q := ps[len(ps)-12], ps[len(ps)-10]
	fresh := New(1 << 20)
	want, err := fresh.Solve(context.Background(), p, 0)
	if err != nil || !want.Proven {
		t.Fatalf("a fresh solver: %+v %v", want, err)
	}
	used := New(1 << 20)
	for _, s := range []*sploof.State{q, p} {
		if _, err := used.Solve(context.Background(), s, 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := used.Solve(context.Background(), q, 0); err != nil {
		t.Fatal(err)
	}
	kept, _ := used.Solve(context.Background(), p, 0)
	if kept.Nodes == want.Nodes {
		t.Fatalf("a solver that solved the position before spent %d nodes, as a fresh one: the test proves nothing", kept.Nodes)
	}
	used.Reset()
	got, err := used.Solve(context.Background(), p, 0)
	if err != nil || got.Nodes != want.Nodes || got.Winner != want.Winner || got.Plies != want.Plies || !slices.Equal(got.Line, want.Line) {
		t.Fatalf("after Reset: %+v %v; a fresh solver: %+v", got, err, want)
	}
}

// TestSolverOrderingNodes: the exact search orders its moves as the win/loss
// search does (moveOrder). On 20 positions 16 plies into seeded random games
// it searches about 5.6 million nodes; with history counted alike at every
// depth and no threats or killer, 15.4 million. The bound sits between them.
func TestSolverOrderingNodes(t *testing.T) {
	var nodes int64
	for _, st := range positionsAt(16, 20) {
		sol, err := New(16<<20).Solve(context.Background(), st, 0)
		if err != nil || !sol.Proven {
			t.Fatal(err)
		}
		nodes += sol.Nodes
	}
	t.Logf("20 positions: %d nodes", nodes)
	if nodes > 10_000_000 {
		t.Fatalf("20 positions searched in %d nodes, more than 10 million", nodes)
	}
}

// positionsAt is the position after ply plies of each of the first count
// seeded random games (seeds from 1000) that last longer: the positions of
// the measurements in docs/solving.md.
func positionsAt(ply, count int) []*sploof.State {
	var out []*sploof.State
	for seed := uint64(1000); len(out) < count; seed++ {
		if ps := gamePositions(seed); len(ps) > ply {
			out = append(out, ps[ply])
		}
	}
	return out
}
