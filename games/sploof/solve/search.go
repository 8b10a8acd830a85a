package solve

import (
	"math/bits"

	"github.com/tabula-games/tabula/games/sploof"
)

// Scores. Sploof has no draws (a side without a move loses, every game
// ends), so a position's value is who wins and when the game ends. A win for
// the side to move with the game over after E plies from the start scores
// scoreBase−E, a loss −(scoreBase−E). Because E counts from the start of the
// game, which the position itself tells (balls placed plus reds removed), a
// score means the same wherever the position turns up, and the table can
// store it as it is. The winner's fastest win and the loser's longest
// resistance are both the larger score.
const scoreBase = 64

// maxScore bounds every score's size; E is never below 1.
const maxScore = scoreBase

// winNow is the best score the side to move in n can have: a win with its
// next move.
func winNow(n *node) int { return scoreBase - int(n.ply) - 1 }

// search is fail-soft negamax with alpha-beta: it returns the score of n
// when that lies strictly inside (alpha, beta), an upper bound of it at or
// below alpha, a lower bound at or above beta. It never allocates: children
// live in this frame's arrays.
func (s *Solver) search(n *node, alpha, beta int) int {
	s.nodes++
	if s.nodes&pollEvery == 0 {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	occ := n.occ()
	pm, rm := n.moveMasks(occ)
	if pm|rm == 0 {
		return -(scoreBase - int(n.ply)) // no move: lost, the game ends here
	}
	top := winNow(n)
	t := n.turn
	own := n.col[t]
	// A winning placement is the best there can be; look for one first.
	for m := pm; m != 0; m &= m - 1 {
		b := m & -m
		if sploof.HasLine(own|b, occ|b) {
			return top
		}
	}
	// Removals are played now: one of them may win through its drop, and
	// one that only completes the other colour's line is lost at once.
	var kids [12]node
	var kidMove [12]uint8
	nk := 0
	bestScore := -maxScore
	for m := rm; m != 0; m &= m - 1 {
		p := trailing(m)
		kids[nk] = *n
		switch kids[nk].play(uint8(sploof.RemoveFlag + p)) {
		case 1:
			return top
		case -1:
			bestScore = -top // a loss next ply; anything else is better
			continue
		}
		kidMove[nk] = uint8(sploof.RemoveFlag + p)
		nk++
	}
	if beta > top {
		beta = top
		if alpha >= beta {
			return beta
		}
	}
	key, sym := n.key()
	ttMove := uint8(noMove)
	if e := s.tt.get(key); e != nil {
		lo, hi := int(e.lo), int(e.hi)
		if lo >= beta {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		alpha = max(alpha, lo)
		beta = min(beta, hi)
		if alpha >= beta {
			return alpha // the table knows the score exactly
		}
		if e.move != noMove {
			ttMove = mapMove(inv[sym], e.move)
		}
	}

	// Order the moves: the table's best move, then placements on the
	// points where the opponent would complete a line (blocks), then by
	// the winning points a move leaves the mover, the killer and history
	// (moveOrder).
	var moves [sploof.NumPoints]uint8
	var prio [sploof.NumPoints]uint64
	nm := 0
	var block uint32
	if opp := 1 - t; n.stock[opp] > 0 {
		theirs := n.col[opp]
		for m := pm; m != 0; m &= m - 1 {
			b := m & -m
			if sploof.HasLine(theirs|b, occ|b) {
				block |= b
			}
		}
	}
	for i := 0; i < nk; i++ {
		pr := s.order.learnt(t, n.ply, kidMove[i])
		if n.stock[t] > 0 {
			pr |= threatPrio(threats(kids[i].col[t], kids[i].occ()))
		}
		moves[nm], prio[nm] = uint8(i), pr
		nm++
	}
	for m := pm; m != 0; m &= m - 1 {
		p := trailing(m)
		q := uint32(1) << p
		pr := s.order.learnt(t, n.ply, uint8(p))
		if block&q != 0 {
			pr |= prioBlock
		} else if n.stock[t] > 1 {
			pr |= threatPrio(threats(own|q, occ|q))
		}
		moves[nm], prio[nm] = uint8(32+p), pr
		nm++
	}
	for i := 0; i < nm; i++ {
		if moveOf(moves[i], &kidMove) == ttMove {
			prio[i] = ^uint64(0)
		}
	}

	alpha0 := alpha
	bestMove := uint8(noMove)
	nodes0 := s.nodes
	var child node
	for i := 0; i < nm; i++ {
		// Selection sort, one step per move tried: a cut-off usually
		// comes early and leaves the rest unsorted.
		j := i
		for k := i + 1; k < nm; k++ {
			if prio[k] > prio[j] {
				j = k
			}
		}
		moves[i], moves[j] = moves[j], moves[i]
		prio[i], prio[j] = prio[j], prio[i]
		if c := moves[i]; c < 32 {
			child = kids[c]
		} else {
			child = *n
			child.place(int(c-32), occ)
		}
		v := -s.search(&child, -beta, -alpha)
		if s.stopped {
			return 0
		}
		if v > bestScore {
			bestScore = v
			bestMove = moveOf(moves[i], &kidMove)
			if v > alpha {
				alpha = v
				if alpha >= beta {
					s.order.refuted(t, n.ply, bestMove)
					break
				}
			}
		}
	}
	lo, hi := -maxScore, maxScore
	switch {
	case bestScore <= alpha0:
		hi = bestScore
	case bestScore >= beta:
		lo = bestScore
	default:
		lo, hi = bestScore, bestScore
	}
	if bestMove != noMove {
		bestMove = mapMove(sym, bestMove)
	}
	s.tt.put(key, lo, hi, bestMove, uint8(bits.Len64(uint64(s.nodes-nodes0))))
	return bestScore
}

// moveOf turns an entry of search's move list (a removal child's index, or
// 32 plus a placement's point) into the move.
func moveOf(i uint8, kidMove *[12]uint8) uint8 {
	if i < 32 {
		return kidMove[i]
	}
	return i - 32
}
