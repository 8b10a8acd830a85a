package solve

import "github.com/tabula-games/tabula/games/sploof"

// moveOrder is what a search has learnt of which moves refute: a history by
// colour and move, and a killer by ply. Both searches order their moves by
// it, below the facts of the position (blocks, threats).
type moveOrder struct {
	hist   [2][64]uint64 // by colour and move: refutations, weighted by refuteWeight
	killer [64]uint8     // by ply: the move that last refuted there, plus one (0: none)
}

// A move's place in a search's order is one word: from the top, a block,
// how many winning points the move leaves the mover (up to 3), the killer,
// and the history below them.
const (
	prioBlock       = 1 << 63
	prioThreatShift = 61
	prioKiller      = 1 << 60
)

// learnt is move m's priority from what the search has learnt, for colour t
// at ply.
func (o *moveOrder) learnt(t, ply, m uint8) uint64 {
	pr := min(o.hist[t][m], prioKiller-1)
	if o.killer[ply&63] == m+1 {
		pr |= prioKiller
	}
	return pr
}

// threatPrio is the priority of a move that leaves the mover c winning
// points.
func threatPrio(c int) uint64 { return uint64(min(c, 3)) << prioThreatShift }

// refuteWeight is what a refutation at ply adds to its move's history:
// twice as much as one a ply deeper. Counted alike at every depth (the
// common "+1"), the many refutations near the leaves decided the order near
// the root; weighted so, the order found higher in the subtree being
// searched rules below it. On 20 positions each at plies 13 to 16 of
// seeded random games (fresh tables, one worker) this, the killer and
// counting the winning points a move leaves took the win/loss search from
// 112.8, 49.4, 22.1 and 7.1 million nodes to 32.8, 11.2, 5.2 and 1.9
// (docs/solving.md).
func refuteWeight(ply uint8) uint64 { return 1 << max(refutePlies-int(ply), 0) }

// refutePlies is past any ply a game reaches (30 points, 12 reds).
const refutePlies = 48

// refuted records that m refuted at ply for colour t: in the history and as
// the ply's killer. Should a count come near the priority's upper bits,
// every count of the colour is halved, which keeps their order.
func (o *moveOrder) refuted(t, ply, m uint8) {
	o.killer[ply&63] = m + 1
	h := &o.hist[t]
	h[m] += refuteWeight(ply)
	if h[m] >= prioKiller/2 {
		for i := range h {
			h[i] /= 2
		}
	}
}

// threats counts the points the colour whose balls are own could complete a
// line on next (occ occupied, own among it).
func threats(own, occ uint32) int {
	c := 0
	for m := sploof.Supported(occ) &^ occ; m != 0; m &= m - 1 {
		b := m & -m
		if sploof.HasLine(own|b, occ|b) {
			c++
		}
	}
	return c
}
