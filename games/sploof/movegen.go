package sploof

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// A Move is a placement, the point itself (0…29), or a removal, removeFlag
// plus the red's level-1 point.
const removeFlag = 32

// placeMask is where the colour to move may place: every empty supported
// point, if it has a ball in stock.
func (s *State) placeMask(occ uint32) uint32 {
	if s.stock[s.turn] == 0 {
		return 0
	}
	return supported(occ) &^ occ
}

// removeMask is the reds the colour to move may remove: the unpinned ones,
// while the supply can pay the two balls (always with supply=unlimited).
func (s *State) removeMask(occ uint32) uint32 {
	if s.supply[s.turn] < 2 && !s.rules.unlimited {
		return 0
	}
	return s.red &^ pinned(occ)
}

// Legal implements game.State. Removals come first, then placements, each in
// point order, which is the byte order of their notation.
func (s *State) Legal(dst []game.Move) []game.Move {
	if s.out.Over() {
		return dst
	}
	occ := s.occ()
	for m := s.removeMask(occ); m != 0; m &= m - 1 {
		dst = append(dst, game.Move(removeFlag+bits.TrailingZeros32(m)))
	}
	for m := s.placeMask(occ); m != 0; m &= m - 1 {
		dst = append(dst, game.Move(bits.TrailingZeros32(m)))
	}
	return dst
}

// Play implements game.State.
func (s *State) Play(m game.Move) {
	if s.stale {
		s.hash, s.stale = s.computeHash(), false
	}
	mover := s.turn
	if m < removeFlag {
		p := int(m)
		s.col[mover] |= 1 << p
		s.hash ^= zPoint[mover][p]
		s.setStock(mover, s.stock[mover]-1)
		// A placement covers and cuts but never uncovers: only the mover
		// can gain a line.
		if hasLine(s.col[mover], s.occ()) {
			s.out = game.WinOutcome(int(mover))
		}
	} else {
		s.remove(int(m) - removeFlag)
		occ := s.occ()
		s.out = s.judge(hasLine(s.col[White], occ), hasLine(s.col[Black], occ), mover)
	}
	s.turn = 1 - mover
	s.hash ^= zTurn
	if !s.out.Over() {
		occ := s.occ()
		if s.placeMask(occ)|s.removeMask(occ) == 0 {
			s.out = game.WinOutcome(int(mover))
		}
	}
}

// remove takes the red on p off the board, pays the mover two balls from the
// supply and lets the balls it supported drop.
func (s *State) remove(p int) {
	mover := s.turn
	s.red &^= 1 << p
	s.hash ^= zPoint[2][p]
	s.setStock(mover, s.stock[mover]+2)
	if s.supply[mover] >= 2 {
		s.setSupply(mover, s.supply[mover]-2)
	} else {
		// supply=unlimited: the stock grows anyway; the supply shows 0.
		s.setSupply(mover, 0)
	}
	before := s.col
	dropChain(&s.col, p, s.occ())
	for k := 0; k < 2; k++ {
		for d := before[k] ^ s.col[k]; d != 0; d &= d - 1 {
			s.hash ^= zPoint[k][bits.TrailingZeros32(d)]
		}
	}
}

// dropChain lets the balls that rested on the red just removed from the
// level-1 point p drop, given every occupied point occ (without that red).
// An unpinned red carries at most one ball, and whatever rests on that ball
// lies straight on along the same top-view diagonal (any other ball up there
// would need a second level-2 ball over the red): each ball of that chain
// moves one step down it and the top point empties.
func dropChain(col *[2]uint32, p int, occ uint32) {
	up := occ & above[p]
	if up == 0 {
		return
	}
	ch := &chains[p][bits.TrailingZeros32(up)-16]
	prev := p
	for i := 1; i < int(ch.n); i++ {
		q := int(ch.pts[i])
		if occ&(1<<q) == 0 {
			return
		}
		k := White
		if col[Black]&(1<<q) != 0 {
			k = Black
		}
		col[k] ^= 1<<q | 1<<prev
		prev = q
	}
}

func (s *State) setStock(c uint8, n uint8) {
	s.hash ^= zStock[c][s.stock[c]] ^ zStock[c][n]
	s.stock[c] = n
}

func (s *State) setSupply(c uint8, n uint8) {
	s.hash ^= zSupply[c][s.supply[c]] ^ zSupply[c][n]
	s.supply[c] = n
}
