package skyjo

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/internal/bitsel"
)

// Playout implements game.Playouter: uniformly random decisions to the end
// of the game, sampled directly instead of from a move list. It draws from
// rng exactly as game.RandomPlayout does over Legal's order (one IntN over
// the number of legal moves, then the move at that index), so both paths
// play the same game for the same generator; TestPlayoutMatchesRandomPlayout
// checks it.
func (s *State) Playout(rng *game.RNG) int {
	plies := 0
	for s.phase != phaseOver {
		p := int(s.toMove)
		var m game.Move
		switch s.phase {
		case phaseFlips:
			d := s.down(p)
			m = game.Move(nthBit(d, rng.IntN(popcount(d))))
		case phaseChoose:
			m = moveTake + game.Move(rng.IntN(2))
		case phaseTook:
			pr := s.present(p)
			m = moveSwap + game.Move(nthBit(pr, rng.IntN(popcount(pr))))
		default: // phaseDrawn
			pr, d := s.present(p), s.down(p)
			k := popcount(pr)
			if i := rng.IntN(k + popcount(d)); i < k {
				m = moveSwap + game.Move(nthBit(pr, i))
			} else {
				m = game.Move(nthBit(d, i-k))
			}
		}
		s.Play(m)
		plies++
	}
	return plies
}

// nthBit is the position of the i-th (from 0) lowest set bit of m; i must
// be less than m's count of set bits. A grid mask has 12 bits: the low byte
// or the high one, then a table (bitsel), instead of a loop clearing i bits.
func nthBit(m uint16, i int) int {
	lo := uint8(m)
	if c := bits.OnesCount8(lo); i >= c {
		return 8 + bitsel.InByte(uint8(m>>8), i-c)
	}
	return bitsel.InByte(lo, i)
}
