package solve

import (
	"fmt"
	"math/bits"

	"github.com/tabula-games/tabula/games/sploof"
)

// A position's key is 64 bits and says everything about it: two 30-bit
// planes (a white ball sets its point's bit in the low plane, a black one in
// the high plane, a red one in both), then how many reds White has removed
// (3 bits), then the colour to move. With the finite supply the rest
// follows: Black's removals are the reds gone less White's, a supply is 14
// less two per removal, and a stock is what of 16 is neither on the board nor
// in the supply.
const (
	planeBits  = 30
	planeMask  = 1<<planeBits - 1
	boardMask  = 1<<(2*planeBits) - 1
	removedPos = 2 * planeBits // White's removals
	turnPos    = 63
)

// Reds at the start, and the balls of a colour in play.
const (
	startReds   = 12
	ballsEach   = 16
	startSupply = 14
)

// node is a position as the search plays it: bitboards, counts, and the
// board keys of its 8 images kept up to date move by move (a handful of XORs
// instead of 8 permutations of 60 bits at every node).
type node struct {
	col    [2]uint32
	red    uint32
	stock  [2]uint8
	supply [2]uint8
	turn   uint8
	ply    uint8 // plies played since the start: balls placed plus reds removed
	sym    [numSyms]uint64
}

// errIrregular is the solver's reason to refuse a position that no game
// from the start can reach.
func errIrregular(what string) error {
	return fmt.Errorf("the solver takes positions a game from the start can reach: %s", what)
}

// nodeFromBits builds a node; it refuses positions whose counts do not
// follow from the board (odd supplies, supplies that do not match the reds
// removed), which the key could not tell apart.
func nodeFromBits(b sploof.Bits) (node, error) {
	n := node{col: [2]uint32{b.White, b.Black}, red: b.Red, stock: b.Stock, supply: b.Supply, turn: uint8(b.ToMove)}
	if b.Red&^(sploof.Level1&^sploof.CentreHoles) != 0 {
		return node{}, errIrregular("a red ball in a centre hole")
	}
	removed := startReds - bits.OnesCount32(b.Red)
	var r [2]int
	for c := 0; c < 2; c++ {
		s := int(b.Supply[c])
		if s > startSupply || (startSupply-s)%2 != 0 {
			return node{}, errIrregular(fmt.Sprintf("a supply of %d", s))
		}
		r[c] = (startSupply - s) / 2
		if int(b.Stock[c])+int(b.Supply[c])+bits.OnesCount32(n.col[c]) != ballsEach {
			return node{}, errIrregular("a colour without 16 balls")
		}
	}
	if r[0]+r[1] != removed {
		return node{}, errIrregular(fmt.Sprintf("%d reds removed but supplies paid for %d", removed, r[0]+r[1]))
	}
	n.ply = uint8(bits.OnesCount32(n.col[0]|n.col[1]) + removed)
	n.setSyms()
	return n, nil
}

// setSyms computes the 8 board keys from scratch.
func (n *node) setSyms() {
	for s := range n.sym {
		var k uint64
		for c := 0; c < 2; c++ {
			for m := n.col[c]; m != 0; m &= m - 1 {
				k ^= pointKey[s][trailing(m)][c]
			}
		}
		for m := n.red; m != 0; m &= m - 1 {
			k ^= pointKey[s][trailing(m)][kindRed]
		}
		n.sym[s] = k
	}
}

// bits returns the position as the rules engine's bitboards.
func (n *node) bits() sploof.Bits {
	return sploof.Bits{White: n.col[0], Black: n.col[1], Red: n.red, Stock: n.stock, Supply: n.supply, ToMove: int(n.turn)}
}

// key returns the position's canonical key (the smallest of its images')
// and the symmetry that maps the position onto that image.
func (n *node) key() (uint64, int) {
	best, bs := n.sym[0], 0
	for s := 1; s < numSyms; s++ {
		if n.sym[s] < best {
			best, bs = n.sym[s], s
		}
	}
	return best | n.tail(), bs
}

// tail is the key's bits above the board: White's removals and the turn.
func (n *node) tail() uint64 {
	return uint64(startSupply-n.supply[0])/2<<removedPos | uint64(n.turn)<<turnPos
}

// nodeFromKey rebuilds the position a key describes (the canonical image).
func nodeFromKey(k uint64) node {
	lo, hi := uint32(k&planeMask), uint32(k>>planeBits&planeMask)
	n := node{col: [2]uint32{lo &^ hi, hi &^ lo}, red: lo & hi, turn: uint8(k >> turnPos)}
	rw := int(k >> removedPos & 7)
	removed := startReds - bits.OnesCount32(n.red)
	n.supply = [2]uint8{uint8(startSupply - 2*rw), uint8(startSupply - 2*(removed-rw))}
	for c := 0; c < 2; c++ {
		n.stock[c] = uint8(ballsEach - int(n.supply[c]) - bits.OnesCount32(n.col[c]))
	}
	n.ply = uint8(bits.OnesCount32(n.col[0]|n.col[1]) + removed)
	n.setSyms()
	return n
}

// occ is every occupied point.
func (n *node) occ() uint32 { return n.col[0] | n.col[1] | n.red }

// moveMasks are the points the side to move may place on and the reds it
// may remove.
func (n *node) moveMasks(occ uint32) (place, remove uint32) {
	t := n.turn
	if n.stock[t] > 0 {
		place = sploof.Supported(occ) &^ occ
	}
	if n.supply[t] >= 2 {
		remove = n.red &^ sploof.Pinned(occ)
	}
	return place, remove
}

// place puts a ball of the side to move on p and passes the turn. It
// reports whether the mover has made a line (a placement can give the other
// colour nothing: it covers and cuts, never uncovers).
func (n *node) place(p int, occ uint32) bool {
	t := n.turn
	b := uint32(1) << p
	n.col[t] |= b
	n.stock[t]--
	for s := range n.sym {
		n.sym[s] ^= pointKey[s][p][t]
	}
	n.ply++
	n.turn ^= 1
	return sploof.HasLine(n.col[t], occ|b)
}

// remove takes the red off p, pays the mover two balls, lets the chain on
// it drop and passes the turn. It reports which colours have a line after.
func (n *node) remove(p int, occ uint32) (white, black bool) {
	t := n.turn
	b := uint32(1) << p
	n.red &^= b
	n.stock[t] += 2
	n.supply[t] -= 2
	for s := range n.sym {
		n.sym[s] ^= pointKey[s][p][kindRed]
	}
	before := n.col
	occ &^= b
	sploof.Drop(&n.col, p, occ)
	for c := 0; c < 2; c++ {
		for d := before[c] ^ n.col[c]; d != 0; d &= d - 1 {
			q := trailing(d)
			for s := range n.sym {
				n.sym[s] ^= pointKey[s][q][c]
			}
		}
	}
	n.ply++
	n.turn ^= 1
	occ = n.occ()
	return sploof.HasLine(n.col[0], occ), sploof.HasLine(n.col[1], occ)
}

// play makes move m (a point, or RemoveFlag plus a red's point) and reports
// how the game stands: 0 going on, +1 the mover has won, -1 the mover has
// lost (a removal whose drop made only the other colour's line).
func (n *node) play(m uint8) int {
	occ := n.occ()
	mover := n.turn
	if m < sploof.RemoveFlag {
		if n.place(int(m), occ) {
			return 1
		}
		return 0
	}
	w, b := n.remove(int(m-sploof.RemoveFlag), occ)
	mine, theirs := w, b
	if mover == 1 {
		mine, theirs = b, w
	}
	switch {
	case mine:
		return 1
	case theirs:
		return -1
	}
	return 0
}

func trailing(m uint32) int { return bits.TrailingZeros32(m) }
