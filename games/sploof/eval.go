package sploof

import (
	"math"
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// Weights of the heuristic, in tanh units (about ±1.5 saturates).
const (
	// A double threat of the side that just moved: one block cannot stop
	// both, so it is nearly a win.
	wDoubleThreat = 1.6
	// A single threat forces the reply.
	wThreat = 0.45
	// A completion point not yet on a platform (or not usable for want of
	// a ball in stock): a line one support away.
	wLatent = 0.12
	// A window with two of one's visible balls and none of the opponent's.
	wOpen = 0.03
	// Balls in stock are tempo: without one a player must remove a red and
	// hand the opponent two placements in a row.
	wStock = 0.04
	// The largest value short of a finished game.
	evalScale = 0.9
	// The side to move can win at once.
	evalWinNow = 0.95
)

// Evaluate implements game.Evaluator: the value of the position for seat in
// [-1, 1], 1 = seat has won. It is meant for a one-ply greedy player, so it
// looks at the position from both sides: a side to move that can complete a
// line now (by a placement, or by a removal whose drop does it) has as good
// as won; otherwise threats — points where one more ball completes a line —
// decide, then open windows and stock.
func (s *State) Evaluate(seat int) float64 {
	switch o := s.out; o.Status {
	case game.Won:
		if o.IsWinner(seat) {
			return 1
		}
		return -1
	case game.Drawn:
		return 0
	}
	tm, nm := int(s.turn), int(1-s.turn)
	sign := 1.0 // + when seat is nm, the side that just moved
	if seat == tm {
		sign = -1
	}
	if s.winsNow() {
		return -sign * evalWinNow
	}
	occ := s.occ()
	sup := supported(occ)
	compNM := completions(s.col[nm], occ)
	compTM := completions(s.col[tm], occ)
	raw := 0.0
	// nm's threats that tm must answer now (nm needs a ball to use them).
	if s.stock[nm] > 0 {
		switch bits.OnesCount32(compNM & sup) {
		case 0:
		case 1:
			raw += wThreat
		default:
			raw += wDoubleThreat
		}
		raw += wLatent * float64(bits.OnesCount32(compNM&^sup))
	} else {
		raw += wLatent * float64(bits.OnesCount32(compNM))
	}
	// tm cannot win now, so its completions wait for a ball or a platform.
	raw -= wLatent * float64(bits.OnesCount32(compTM))
	raw += wOpen * float64(openWindows(s.col[nm], s.col[tm], occ)-openWindows(s.col[tm], s.col[nm], occ))
	raw += wStock * float64(int(s.stock[nm])-int(s.stock[tm]))
	return sign * evalScale * math.Tanh(raw)
}

// winsNow reports whether the side to move has a move that wins at once.
func (s *State) winsNow() bool {
	occ := s.occ()
	me := s.turn
	if s.placeMask(occ)&completions(s.col[me], occ) != 0 {
		return true
	}
	for m := s.removeMask(occ); m != 0; m &= m - 1 {
		c := *s
		c.Play(game.Move(removeFlag + bits.TrailingZeros32(m)))
		if c.out.IsWinner(int(me)) && c.out.Status == game.Won {
			return true
		}
	}
	return false
}

// completions is the set of empty points where one more ball of the colour
// owning own would complete a line, whether or not the point is on a
// platform yet.
func completions(own, occ uint32) uint32 {
	var out uint32
	for m := all &^ occ; m != 0; m &= m - 1 {
		b := m & -m
		if hasLine(own|b, occ|b) {
			out |= b
		}
	}
	return out
}

// openWindows counts the windows with at least two visible balls of own and
// no visible ball of other.
func openWindows(own, other, occ uint32) int {
	cov := covered(occ)
	vo, vx := own&^cov, other&^cov
	n := 0
	for i := range windows {
		w := &windows[i]
		if bits.OnesCount32(vo&w.pts) >= 2 && vx&w.pts == 0 {
			n++
		}
	}
	return n
}
