package sploof

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// Playout implements game.Playouter: uniformly random legal moves to the end
// of the game, straight from the masks. It draws exactly as
// game.RandomPlayout does over Legal's order (removals, then placements, by
// point), so the same generator gives the same game either way.
//
// The loop works on local copies of the board and computes the move masks
// once per ply (Play computes them a second time, for the no-move loss); the
// state is written back, hash included, at the end.
func (s *State) Playout(rng *game.RNG) int {
	if s.out.Over() {
		return 0
	}
	col, red, stock, supply, turn := s.col, s.red, s.stock, s.supply, s.turn
	unlimited := s.rules.unlimited
	var out game.Outcome
	plies := 0
	for {
		occ := col[White] | col[Black] | red
		var pm, rm uint32
		if stock[turn] > 0 {
			pm = supported(occ) &^ occ
		}
		if supply[turn] >= 2 || unlimited {
			rm = red &^ pinned(occ)
		}
		nr := bits.OnesCount32(rm)
		n := nr + bits.OnesCount32(pm)
		if n == 0 {
			out = game.WinOutcome(int(1 - turn))
			break
		}
		k := rng.IntN(n)
		plies++
		if k >= nr {
			p := selectBit(pm, k-nr)
			col[turn] |= 1 << p
			stock[turn]--
			if hasLine(col[turn], occ|1<<p) {
				out = game.WinOutcome(int(turn))
				turn ^= 1
				break
			}
		} else {
			p := selectBit(rm, k)
			red &^= 1 << p
			stock[turn] += 2
			if supply[turn] >= 2 {
				supply[turn] -= 2
			} else {
				supply[turn] = 0
			}
			occ &^= 1 << p
			dropChain(&col, p, occ)
			occ = col[White] | col[Black] | red
			if w, b := hasLine(col[White], occ), hasLine(col[Black], occ); w || b {
				out = s.judge(w, b, turn)
				turn ^= 1
				break
			}
		}
		turn ^= 1
	}
	s.col, s.red, s.stock, s.supply, s.turn, s.out = col, red, stock, supply, turn, out
	s.stale = true
	return plies
}
