package sploof

import (
	"fmt"
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// The exported kernel: the rules on bare bitboards, for the exact solver
// (games/sploof/solve), which visits millions of positions a second and
// cannot afford State's bookkeeping (hash, outcome, options) at every node.
// State is built on the very same functions, so the two cannot disagree.

// NumPoints is the number of points of the pyramid, the bits 0…29 of a
// board mask.
const NumPoints = numPoints

// Masks of the levels and of the start's empty centre holes.
const (
	Level1      = level1
	CentreHoles = centreHoles
	// RemoveFlag is added to a red's point to make the Move that removes
	// it; a placement's Move is its point.
	RemoveFlag = removeFlag
)

// Supported is the set of points that rest on four occupied points (every
// level-1 point counts as supported) when occ is occupied.
func Supported(occ uint32) uint32 { return supported(occ) }

// Pinned is the set of level-1 points that at least two occupied level-2
// points rest on.
func Pinned(occ uint32) uint32 { return pinned(occ) }

// HasLine reports whether the colour whose balls are own has a line when
// occ is occupied.
func HasLine(own, occ uint32) bool { return hasLine(own, occ) }

// Drop lets the balls resting on the level-1 point p drop after its red was
// removed; occ is every occupied point without that red.
func Drop(col *[2]uint32, p int, occ uint32) { dropChain(col, p, occ) }

// PointXY returns the level (1…4) of point p and its place in the 7×7 top
// view (x = column a…g, y = row 1…7, both 0-based).
func PointXY(p int) (level, x, y int) {
	pt := points[p]
	return pt.h, pt.x, pt.y
}

// PointAt is the point of the given level at top-view (x, y), or -1.
func PointAt(level, x, y int) int {
	if x < 0 || y < 0 || x > 6 || y > 6 {
		return -1
	}
	return pointAt(x, y, level)
}

// Bits is a position as bare bitboards and counts.
type Bits struct {
	White, Black, Red uint32
	Stock, Supply     [2]uint8
	ToMove            int // White or Black
}

// Bits returns the position of s. Whether the game is over is not part of
// it; ask s.Outcome.
func (s *State) Bits() Bits {
	return Bits{White: s.col[White], Black: s.col[Black], Red: s.red,
		Stock: s.stock, Supply: s.supply, ToMove: int(s.turn)}
}

// DefaultRules reports whether s is played with the default supply=finite
// and bothlines=mover (first only says who began).
func (s *State) DefaultRules() bool { return !s.rules.unlimited && !s.rules.bothDraw }

// FromBits returns the state of a position given as bitboards, played with
// the default options (first=random: who began is not recorded). It checks
// what ParsePosition checks of a board: balls on distinct points, reds on
// level 1, every ball resting on four, 16 balls of each colour in all.
func FromBits(b Bits) (*State, error) {
	s := &State{col: [2]uint32{b.White, b.Black}, red: b.Red, stock: b.Stock, supply: b.Supply,
		first: -1, rules: rules{first: firstRandom}}
	switch {
	case b.ToMove != White && b.ToMove != Black:
		return nil, fmt.Errorf("sploof: %w: to move %d", game.ErrPosition, b.ToMove)
	case b.White&b.Black != 0 || b.White&b.Red != 0 || b.Black&b.Red != 0 || (b.White|b.Black|b.Red)&^all != 0:
		return nil, fmt.Errorf("sploof: %w: balls overlap or lie off the pyramid", game.ErrPosition)
	case b.Red&^level1 != 0:
		return nil, fmt.Errorf("sploof: %w: a red ball above level 1", game.ErrPosition)
	}
	s.turn = uint8(b.ToMove)
	occ := s.occ()
	if floating := occ &^ supported(occ); floating != 0 {
		return nil, fmt.Errorf("sploof: %w: a ball does not rest on four balls", game.ErrPosition)
	}
	for c := 0; c < 2; c++ {
		if n := bits.OnesCount32(s.col[c]) + int(s.stock[c]) + int(s.supply[c]); n != 16 || s.supply[c] > maxSupply {
			return nil, fmt.Errorf("sploof: %w: %s has %d balls in all, want 16", game.ErrPosition, colourNames[c], n)
		}
	}
	s.finish()
	return s, nil
}
