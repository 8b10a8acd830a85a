package skyjo

import "github.com/tabula-games/tabula/game"

// PolicyMove implements game.Policy: a greedy rule on the public view only
// (take the discard when it clearly lowers the grid or completes a column,
// otherwise draw; keep low cards, discard and flip otherwise; avoid ending
// the round without a likely lowest score).
func (s *State) PolicyMove(rng *game.RNG) game.Move {
	v := s.public()
	return v.policy(rng)
}

// Policy constants, tuned by 2-player self-play (TestPolicyStatistics).
const (
	// takeGain is the least expected gain for which taking the discard beats
	// drawing an unknown card (which may itself be kept or discarded).
	takeGain = 3.5
	// keepGain is the least expected gain for which a drawn card is kept
	// rather than discarded for a flip.
	keepGain = 1.0
	// pairBonus rewards placing a card beside an equal face-up one in a
	// column that can still be completed, per point of card value saved
	// when completed, scaled down by the chance of completing it.
	pairBonus = 0.45
	// endMargin is how much lower than every opponent's estimate a score
	// must be before the policy ends the round on purpose.
	endMargin = 2.0
)

// policyEval holds what the policy knows in a view.
type policyEval struct {
	v     *public
	p     int
	mean  float64 // expected value of a card visible nowhere
	count [15]int // cards visible nowhere, by value
	// own is cell(p, i) for the seat to move, computed once per decision:
	// every candidate move reads its column, and the policy runs at every
	// ply of the sampling search's rollouts.
	own [gridCards]float64
}

func (v *public) policy(rng *game.RNG) game.Move {
	var buf [32]game.Move
	ms := v.legal(buf[:0])
	switch len(ms) {
	case 0:
		return 0 // the game is over: there is no move to choose
	case 1:
		return ms[0]
	}
	e := policyEval{v: v, p: int(v.toMove)}
	count, k := v.unseenCounts()
	e.count = count
	sum := 0
	for i, c := range count {
		sum += (i - 2) * c
	}
	e.mean = 5
	if k > 0 {
		e.mean = float64(sum) / float64(k)
	}
	for i := range e.own {
		e.own[i] = e.cell(e.p, i)
	}
	best, bestVal, ties := ms[0], -1e18, 0
	for _, m := range ms {
		val := e.value(m)
		switch {
		case val > bestVal+1e-9:
			best, bestVal, ties = m, val, 1
		case val > bestVal-1e-9:
			ties++
			if rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// cell is the expected value of seat p's card at i.
func (e *policyEval) cell(p, i int) float64 {
	if e.v.up[p]&(1<<i) != 0 {
		return float64(e.v.face[p][i])
	}
	return e.mean
}

// estimate is seat p's expected grid sum.
func (e *policyEval) estimate(p int) float64 {
	sum := 0.0
	for m := gridMask &^ e.v.gone[p]; m != 0; m &= m - 1 {
		sum += e.cell(p, trailingZeros(m))
	}
	return sum
}

// place is the expected gain (points saved) of putting card c face up at
// position i of the seat to move, counting a column it completes, and a
// bonus for a pair it starts.
func (e *policyEval) place(i int, c int8) (gain, bonus float64) {
	v, p := e.v, e.p
	col := i / 3 * 3
	old := e.own[col] + e.own[col+1] + e.own[col+2]
	same, downOthers := 0, 0
	for j := col; j < col+3; j++ {
		if j == i {
			continue
		}
		switch {
		case v.up[p]&(1<<j) == 0:
			downOthers++
		case v.face[p][j] == c:
			same++
		}
	}
	if v.cfg.columns && same == 2 {
		return old, 0 // the column goes
	}
	gain = e.own[i] - float64(c)
	if v.cfg.columns && same == 1 && downOthers == 1 && c > 0 {
		// A pair whose third card is unknown: some chance to clear 3c later.
		left := float64(e.count[c+2])
		bonus = pairBonus * 3 * float64(c) * min(1, left/4)
	}
	return gain, bonus
}

// swapValue scores putting c at i.
func (e *policyEval) swapValue(i int, c int8) float64 {
	gain, bonus := e.place(i, c)
	return gain + bonus + e.ending(i, gain, false)
}

// value scores a legal move for the seat to move.
func (e *policyEval) value(m game.Move) float64 {
	v, p := e.v, e.p
	switch v.phase {
	case phaseFlips:
		return e.flipValue(int(m))
	case phaseChoose:
		if m == moveDraw {
			return takeGain
		}
		top := v.disc[v.discN-1]
		best := -1e9
		for mm := gridMask &^ v.gone[p]; mm != 0; mm &= mm - 1 {
			i := trailingZeros(mm)
			best = max(best, e.swapValue(i, top))
		}
		return best
	}
	if m >= moveSwap {
		i := int(m - moveSwap)
		return e.swapValue(i, v.held)
	}
	// Discard the drawn card and flip: no gain expected, but progress.
	return keepGain + e.flipValue(int(m)) + e.ending(int(m), 0, true)
}

// legal is State.Legal on the public view (legality never depends on a
// hidden card).
func (v *public) legal(dst []game.Move) []game.Move {
	if v.phase == phaseOver {
		return dst
	}
	p := int(v.toMove)
	down := gridMask &^ (v.up[p] | v.gone[p])
	present := gridMask &^ v.gone[p]
	switch v.phase {
	case phaseFlips:
		dst = appendPositions(dst, down, 0)
	case phaseChoose:
		dst = append(dst, moveTake, moveDraw)
	case phaseTook:
		dst = appendPositions(dst, present, moveSwap)
	case phaseDrawn:
		dst = appendPositions(dst, present, moveSwap)
		dst = appendPositions(dst, down, 0)
	}
	return dst
}

// flipValue prefers flipping in the column with the most face-down cards
// (keeping the information spread), a tie-break worth less than a point.
func (e *policyEval) flipValue(i int) float64 {
	v, p := e.v, e.p
	col := i / 3 * 3
	down := 0
	for j := col; j < col+3; j++ {
		if (v.up[p]|v.gone[p])&(1<<j) == 0 {
			down++
		}
	}
	return 0.1 * float64(down)
}

// ending is the penalty for a move that ends the round (leaves no face-down
// card) when the seat is not clearly lowest: it would likely be doubled.
// gain is the move's expected gain (for a swap).
func (e *policyEval) ending(i int, gain float64, flip bool) float64 {
	v, p := e.v, e.p
	if v.ender >= 0 || v.phase == phaseFlips {
		return 0
	}
	down := gridMask &^ (v.up[p] | v.gone[p])
	if down&^(1<<i) != 0 {
		return 0
	}
	// The score after the move, the flipped card taken at its mean.
	mine := e.estimate(p)
	if !flip {
		mine -= gain
	}
	low := 1e18
	for q := 0; q < int(v.cfg.players); q++ {
		if q != p {
			low = min(low, e.estimate(q))
		}
	}
	if mine < low-endMargin {
		return 0
	}
	return -max(mine, 1)
}
