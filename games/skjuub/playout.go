package skjuub

import "github.com/tabula-games/tabula/game"

// maxMoves bounds the legal actions of any position: 144 placements, at
// most 11 active pieces × (10 slides + 2 tumbles + 2 quarter turns), 10
// pick-ups and a pass.
const maxMoves = 144 + 11*14 + 10 + 1

// Playout plays uniformly random legal actions to the end of the game, in
// place, and returns the number of plies. It draws exactly as
// game.RandomPlayout does (one IntN over the legal actions in Legal's order),
// so both give the same game for the same generator, but it picks the r-th
// action by counting bits instead of writing the whole list.
func (s *State) Playout(rng *game.RNG) int {
	var g gen
	plies := 0
	s.lazy = true
	defer func() { s.lazy = false }()
	for !s.out.Over() {
		s.collect(&g, s.masks())
		if s.unjudged {
			s.unjudged = false
			s.judge(g.moving > 0, g.n > 0)
			if s.out.Over() {
				break
			}
		}
		mv := g.nth(rng.IntN(g.n))
		if mKind(mv) == kindPickup {
			mv = pickupMove(mFrom(mv), s.dirAt(mFrom(mv)))
		}
		s.Play(mv)
		plies++
	}
	return plies
}

// RandomMove implements game.RandomMover: Legal's r-th action for one IntN
// over their number, found by counting bits as Playout does.
func (s *State) RandomMove(rng *game.RNG) (game.Move, bool) {
	if s.out.Over() {
		return 0, false
	}
	var g gen
	s.collect(&g, s.masks())
	if g.n == 0 {
		return 0, false
	}
	mv := g.nth(rng.IntN(g.n))
	if mKind(mv) == kindPickup {
		mv = pickupMove(mFrom(mv), s.dirAt(mFrom(mv)))
	}
	return mv, true
}
