package sploof

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// Playout implements game.Playouter: uniformly random legal moves to the end
// of the game, straight from the masks. It draws exactly as
// game.RandomPlayout does over Legal's order (removals, then placements, by
// point), so the same generator gives the same game either way.
func (s *State) Playout(rng *game.RNG) int {
	plies := 0
	for !s.out.Over() {
		occ := s.occ()
		rm := s.removeMask(occ)
		pm := s.placeMask(occ)
		nr := bits.OnesCount32(rm)
		k := rng.IntN(nr + bits.OnesCount32(pm))
		if k < nr {
			s.Play(game.Move(removeFlag + selectBit(rm, k)))
		} else {
			s.Play(game.Move(selectBit(pm, k-nr)))
		}
		plies++
	}
	return plies
}
