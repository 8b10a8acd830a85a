package solve

import (
	"context"
	"errors"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// TestVerifierRejectsCorruptedResults: the verifier accepts the solver's
// proofs of late positions from random games, and rejects every one of
// these corruptions of them: the winner swapped, the length off by one, a
// line move replaced, and — lines that are legal and end as they claim —
// a claimed win for the side that in fact loses (a line through one of the
// true winner's losing moves) and a win slower than the fastest (a line
// through a slower winning move).
func TestVerifierRejectsCorruptedResults(t *testing.T) {
	ctx := context.Background()
	sv := New(1 << 22)
	solve := func(s *sploof.State) game.Solution {
		sol, err := sv.Solve(ctx, s, 0)
		if err != nil || !sol.Proven {
			t.Fatalf("%+v %v", sol, err)
		}
		return sol
	}
	reject := func(what string, s *sploof.State, sol game.Solution) {
		t.Helper()
		err := Verify(ctx, s, sol, 5_000_000)
		if err == nil {
			t.Fatalf("%s: the verifier accepted %+v", what, sol)
		}
		if errors.Is(err, ErrVerifyBudget) {
			t.Fatalf("%s: %v", what, err)
		}
	}
	accepted, kinds := 0, map[string]int{}
	for seed := uint64(1); accepted < 40; seed++ {
		ps := gamePositions(500 + seed)
		// From the end backwards while the game left is short enough for
		// the verifier's plain search.
		for i := len(ps) - 2; i >= 0 && i >= len(ps)-8; i -= 2 {
			s := ps[i]
			sol := solve(s)
			if sol.Plies > 7 {
				break
			}
			if err := Verify(ctx, s, sol, 5_000_000); err != nil {
				t.Fatalf("seed %d ply %d: the solver's %+v refused: %v", seed, i, sol, err)
			}
			accepted++

			bad := sol
			bad.Winner = 1 - sol.Winner
			reject("winner swapped", s, bad)
			kinds["swapped"]++
			bad = sol
			bad.Plies++
			reject("one ply more", s, bad)
			bad.Plies -= 2
			reject("one ply less", s, bad)
			kinds["length"]++
			// The last move replaced by one that does not end the game
			// with the claimed winner winning.
			bad = sol
			bad.Line = append([]game.Move(nil), sol.Line...)
			c := *s
			for _, m := range sol.Line[:len(sol.Line)-1] {
				c.Play(m)
			}
			for _, m := range c.Legal(nil) {
				d := c
				d.Play(m)
				if o := d.Outcome(); !o.Over() || !o.IsWinner(sol.Winner) {
					bad.Line[len(bad.Line)-1] = m
					reject("last move replaced", s, bad)
					kinds["move"]++
					break
				}
			}

			// Legal lines that end as they claim, through other moves.
			mover := s.ToMove()
			for _, m := range s.Legal(nil) {
				c := *s
				c.Play(m)
				if c.Outcome().Over() {
					continue
				}
				cs := solve(&c)
				claim := game.Solution{Proven: true, Winner: cs.Winner, Plies: cs.Plies + 1,
					Line: append([]game.Move{m}, cs.Line...)}
				switch {
				case sol.Winner == mover && cs.Winner != mover:
					reject("a win for the side that loses", s, claim)
					kinds["loser"]++
				case sol.Winner == mover && claim.Plies > sol.Plies:
					reject("a slower win", s, claim)
					kinds["slower"]++
				}
			}
		}
	}
	for _, k := range []string{"swapped", "length", "move", "loser", "slower"} {
		if kinds[k] == 0 {
			t.Errorf("no corruption of kind %s was tried", k)
		}
	}
	t.Logf("%d proofs accepted; corruptions rejected: %v", accepted, kinds)
}
