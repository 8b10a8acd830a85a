package learn

import (
	"fmt"

	"github.com/tabula-games/tabula/game"
)

// prover is a bounded-depth exhaustive search over game.State, written for
// the puzzle proofs and kept as plain as possible so that it is easy to
// trust: no pruning beyond stopping at the first winning move (or the first
// defence), a transposition table of exact answers, and one scratch state
// per depth. It answers one question: can seat force a win within d plies,
// whatever the other side does? The table is keyed by the position JSON
// itself (which reads back to an equal state), not by a hash, so that no
// collision can make a proof wrong.
type prover struct {
	seat    int
	scratch []game.State
	moves   [][]game.Move
	memo    map[memoKey]bool
	nodes   int
}

type memoKey struct {
	position string
	depth    int
}

func newProver(s game.State, seat, maxDepth int) *prover {
	p := &prover{seat: seat, memo: map[memoKey]bool{}}
	for i := 0; i <= maxDepth; i++ {
		p.scratch = append(p.scratch, s.Clone())
		p.moves = append(p.moves, nil)
	}
	return p
}

// wins reports whether p.seat can force a win from s within depth plies: the
// game is over and won by p.seat (alone or shared), or p.seat is to move
// and some move wins within depth-1, or the other side is to move and every
// move loses within depth-1.
func (p *prover) wins(s game.State, depth int) bool {
	p.nodes++
	if o := s.Outcome(); o.Over() {
		return o.Status == game.Won && o.IsWinner(p.seat)
	}
	if depth == 0 {
		return false
	}
	pos, err := s.MarshalPosition()
	if err != nil {
		panic("learn: a state that cannot write its position: " + err.Error())
	}
	k := memoKey{string(pos), depth}
	if v, ok := p.memo[k]; ok {
		return v
	}
	mine := s.ToMove() == p.seat
	p.moves[depth] = s.Legal(p.moves[depth][:0])
	result := !mine // a position with no move for the defender is not a win
	if !mine && len(p.moves[depth]) == 0 {
		result = false
	}
	child := p.scratch[depth]
	for i := 0; i < len(p.moves[depth]); i++ {
		m := p.moves[depth][i]
		child.CopyFrom(s)
		child.Play(m)
		w := p.wins(child, depth-1)
		if mine && w {
			result = true
			break
		}
		if !mine && !w {
			result = false
			break
		}
	}
	p.memo[k] = result
	return result
}

// Winners returns the moves of the seat to move in s that force a win
// within plies plies (counting the move itself), in the game's notation.
func Winners(s game.State, plies int) []string {
	seat := s.ToMove()
	p := newProver(s, seat, plies)
	var out []string
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		c.Play(m)
		if p.wins(c, plies-1) {
			out = append(out, s.FormatMove(m))
		}
	}
	return out
}

// CheckPuzzle proves what a puzzle claims: the position is valid with its
// side to move, exactly one move (the first of Line) forces a win within
// Plies plies against every defence, no move forces one sooner (so Plies
// is the puzzle's true length), and Line
// is legal and ends in that win.
//
// It also checks the puzzle's labels: Kind is PuzzleKind's and Difficulty
// is Difficulty's for the line (when the puzzle has them). A puzzle of a
// game with hidden information is a decision, proved by CheckDecision.
func CheckPuzzle(g game.Game, pz *Puzzle) error {
	if g.Facts().HiddenInfo {
		if err := CheckDecision(g, pz); err != nil {
			return err
		}
		return checkLabels(g, pz, DecisionDifficulty(pz.Expect.Margin))
	}
	if len(pz.Accept) > 0 || pz.Expect != nil {
		return fmt.Errorf("a forced-win puzzle has one solution and no expectation")
	}
	if err := checkWin(g, pz); err != nil {
		return err
	}
	s, _ := g.ParsePosition(pz.Position)
	return checkLabels(g, pz, Difficulty(s, pz.Line))
}

// checkLabels checks a puzzle's kind and difficulty, when it has them.
func checkLabels(g game.Game, pz *Puzzle, difficulty int) error {
	s, err := g.ParsePosition(pz.Position)
	if err != nil {
		return err
	}
	if k := PuzzleKind(s, pz.Line); pz.Kind != "" && pz.Kind != k {
		return fmt.Errorf("kind %q, but the solution is %q", pz.Kind, k)
	}
	if pz.Difficulty != 0 && pz.Difficulty != difficulty {
		return fmt.Errorf("difficulty %d, but the estimate is %d", pz.Difficulty, difficulty)
	}
	return nil
}

// checkWin proves a forced-win puzzle (see CheckPuzzle).
func checkWin(g game.Game, pz *Puzzle) error {
	s, err := g.ParsePosition(pz.Position)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	if s.Outcome().Over() {
		return fmt.Errorf("the game is already over")
	}
	if pz.Plies < 1 || len(pz.Line) == 0 || len(pz.Line) > pz.Plies {
		return fmt.Errorf("plies %d and a line of %d moves: want a line of 1…plies moves", pz.Plies, len(pz.Line))
	}
	seat := s.ToMove()
	w := Winners(s, pz.Plies)
	if len(w) != 1 || w[0] != pz.Line[0] {
		return fmt.Errorf("the moves that win within %d plies are %v, not exactly %s", pz.Plies, w, pz.Line[0])
	}
	if pz.Plies > 1 {
		if sooner := Winners(s, pz.Plies-1); len(sooner) > 0 {
			return fmt.Errorf("%v already win within %d plies", sooner, pz.Plies-1)
		}
	}
	end := s.Clone()
	for i, mv := range pz.Line {
		if err := game.Play(end, mv); err != nil {
			return fmt.Errorf("line move %d %s: %w", i+1, mv, err)
		}
	}
	if o := end.Outcome(); o.Status != game.Won || !o.IsWinner(seat) {
		return fmt.Errorf("the line %v does not end in a win for the side to move", pz.Line)
	}
	return nil
}

// Line is a winning line that starts with first, a move of the seat to move
// in s that forces a win within plies plies: after it, the defender always
// plays a move that holds out longest and the winner a move that wins
// soonest, until the game is won.
func Line(s game.State, first string, plies int) []string {
	seat := s.ToMove()
	p := newProver(s, seat, plies)
	cur := s.Clone()
	if game.Play(cur, first) != nil {
		return nil
	}
	line := []string{first}
	// soonest is the fewest plies within which seat wins from c (or left+1).
	soonest := func(c game.State, left int) int {
		for d := 0; d <= left; d++ {
			if p.wins(c, d) {
				return d
			}
		}
		return left + 1
	}
	for left := plies - 1; !cur.Outcome().Over() && left > 0; left-- {
		var best game.Move
		bestD := -1
		for _, m := range cur.Legal(nil) {
			c := cur.Clone()
			c.Play(m)
			d := soonest(c, left-1)
			mine := cur.ToMove() == seat
			if bestD < 0 || (mine && d < bestD) || (!mine && d > bestD) {
				best, bestD = m, d
			}
		}
		line = append(line, cur.FormatMove(best))
		cur.Play(best)
	}
	return line
}
