package skjuub

import "github.com/tabula-games/tabula/game"

// Move layout (game.Move is a uint32):
//
//	bits 0-2   kind
//	bits 3-8   from square (slide, tumble, pick-up, quarter turn)
//	bits 9-14  to square (place, slide, tumble)
//	bits 15-16 direction: the placed piece's (place), the picked-up piece's
//	           (pick-up, so that its reverse is known), the rotation for a
//	           quarter turn (1 clockwise, 3 anticlockwise)
//
// Zero is no move at all; the state uses it for "no last action".
const (
	kindPlace = 1 + iota
	kindSlide
	kindTumble
	kindPickup
	kindTurn
	kindPass
)

const (
	rotCW  = 1
	rotCCW = 3
)

func mkMove(kind, from, to, dir int) game.Move {
	return game.Move(kind | from<<3 | to<<9 | dir<<15)
}

func placeMove(sq, d int) game.Move     { return mkMove(kindPlace, 0, sq, d) }
func slideMove(from, to int) game.Move  { return mkMove(kindSlide, from, to, 0) }
func tumbleMove(from, to int) game.Move { return mkMove(kindTumble, from, to, 0) }
func pickupMove(sq, d int) game.Move    { return mkMove(kindPickup, sq, 0, d) }
func turnMove(sq, rot int) game.Move    { return mkMove(kindTurn, sq, 0, rot) }

var passMove = mkMove(kindPass, 0, 0, 0)

func mKind(m game.Move) int { return int(m & 7) }
func mFrom(m game.Move) int { return int(m>>3) & 63 }
func mTo(m game.Move) int   { return int(m>>9) & 63 }
func mDir(m game.Move) int  { return int(m>>15) & 3 }

// reverse is the action that would exactly undo m, which the no-backtracking
// rule forbids next turn; 0 when nothing reverses m (a placement: picking up
// a piece placed last turn is allowed).
func reverse(m game.Move) game.Move {
	switch mKind(m) {
	case kindSlide:
		return slideMove(mTo(m), mFrom(m))
	case kindTumble:
		return tumbleMove(mTo(m), mFrom(m))
	case kindPickup:
		return placeMove(mFrom(m), mDir(m))
	case kindTurn:
		return turnMove(mFrom(m), 4-mDir(m))
	}
	return 0
}
