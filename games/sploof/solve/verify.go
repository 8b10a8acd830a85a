package solve

import (
	"context"
	"errors"
	"fmt"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// ErrVerifyBudget reports a verification cut short by its node budget: the
// claim is neither confirmed nor refuted.
var ErrVerifyBudget = errors.New("sploof verifier: budget spent before the claim was settled")

// Verify checks a proof that the solver (or anyone) claims for s, without
// the solver's code: it plays only the rules engine's Legal, Play and
// Outcome. The claim "seat W wins and the game lasts P plies with best
// play" holds when
//
//   - the line is P legal moves that end the game with W winning,
//   - W can force a win within P plies (an AND-OR search: some move of W's,
//     every reply of the other side), and
//   - W cannot force one within P−1 plies (so the other side holds out
//     that long).
//
// It returns nil when all three hold, an error saying which fails
// otherwise, and ErrVerifyBudget when the searches need more than maxNodes
// positions (0: no limit).
func Verify(ctx context.Context, s *sploof.State, sol game.Solution, maxNodes int64) error {
	if !sol.Proven {
		return fmt.Errorf("sploof verifier: the solution claims no proof")
	}
	if sol.Winner != 0 && sol.Winner != 1 {
		return fmt.Errorf("sploof verifier: no seat %d", sol.Winner)
	}
	if len(sol.Line) != sol.Plies {
		return fmt.Errorf("sploof verifier: a line of %d moves for a game of %d plies", len(sol.Line), sol.Plies)
	}
	c := *s
	for i, m := range sol.Line {
		if c.Outcome().Over() {
			return fmt.Errorf("sploof verifier: the game is over before line move %d", i+1)
		}
		if !game.IsLegal(&c, m) {
			return fmt.Errorf("sploof verifier: line move %d is not legal", i+1)
		}
		c.Play(m)
	}
	if o := c.Outcome(); !o.Over() || !o.IsWinner(sol.Winner) {
		return fmt.Errorf("sploof verifier: the line does not end in a win for seat %d", sol.Winner)
	}
	v := &verifier{ctx: ctx, limit: maxNodes, won: map[sploof.Bits]int{}, notWon: map[sploof.Bits]int{}}
	ok, err := v.winsWithin(s, sol.Winner, sol.Plies)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("sploof verifier: seat %d cannot force a win within %d plies", sol.Winner, sol.Plies)
	}
	if sol.Plies > 1 {
		ok, err = v.winsWithin(s, sol.Winner, sol.Plies-1)
		if err != nil {
			return err
		}
		if ok {
			return fmt.Errorf("sploof verifier: seat %d can force a win faster than in %d plies", sol.Winner, sol.Plies)
		}
	}
	return nil
}

// verifier is the AND-OR search. won[p] is the fewest plies within which
// the winner is known to force a win from p, notWon[p] the most within
// which it is known not to (positions of one winner only).
type verifier struct {
	ctx         context.Context
	nodes       int64
	limit       int64
	won, notWon map[sploof.Bits]int
}

// winsWithin reports whether seat w can force a win from s within d plies.
func (v *verifier) winsWithin(s *sploof.State, w, d int) (bool, error) {
	if o := s.Outcome(); o.Over() {
		return o.IsWinner(w), nil
	}
	if d <= 0 {
		return false, nil
	}
	b := s.Bits()
	if k, ok := v.won[b]; ok && k <= d {
		return true, nil
	}
	if k, ok := v.notWon[b]; ok && k >= d {
		return false, nil
	}
	v.nodes++
	if v.limit > 0 && v.nodes > v.limit {
		return false, ErrVerifyBudget
	}
	if v.nodes&1023 == 0 && v.ctx.Err() != nil {
		return false, v.ctx.Err()
	}
	mine := s.ToMove() == w
	result := !mine // W to move: some child must win; else: every child must
	for _, m := range s.Legal(nil) {
		c := *s
		c.Play(m)
		ok, err := v.winsWithin(&c, w, d-1)
		if err != nil {
			return false, err
		}
		if ok == mine {
			result = mine
			break
		}
	}
	if result {
		v.won[b] = d
	} else {
		v.notWon[b] = max(v.notWon[b], d)
	}
	return result, nil
}
