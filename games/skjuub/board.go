package skjuub

import "math/bits"

// Squares are numbered row*6+col: a1 = 0, f1 = 5, a6 = 30, f6 = 35. Row 0 is
// player 1's edge. A board is a uint64 with bit sq set per square.
const (
	boardSize  = 6
	numSquares = 36
	noSquare   = -1

	full  uint64 = 1<<numSquares - 1
	fileA uint64 = 0x041041041
	fileF uint64 = fileA << 5
	rank1 uint64 = 0x3f
	rank6 uint64 = rank1 << 30
)

// Overhang directions, clockwise so that a quarter turn adds ±1 and the
// opposite direction adds 2 (mod 4).
const (
	north = iota // toward row 6
	east         // toward file f
	south
	west
)

var dirLetters = [4]byte{'N', 'E', 'S', 'W'}

func opposite(d int) int { return (d + 2) & 3 }

// offEdge[d] holds the squares whose overhang in direction d sticks out past
// the board edge.
var offEdge = [4]uint64{rank6, fileF, rank1, fileA}

// shift moves every square of b one step toward d, dropping squares that
// leave the board.
func shift(b uint64, d int) uint64 {
	switch d {
	case north:
		return (b << 6) & full
	case east:
		return (b << 1) &^ fileA & full
	case south:
		return b >> 6
	default:
		return (b >> 1) &^ fileF
	}
}

// adj returns the orthogonal neighbours of the squares of b.
func adj(b uint64) uint64 {
	return (b<<6)&full | b>>6 | (b<<1)&^fileA&full | (b>>1)&^fileF
}

// step[sq][d] is the neighbour of sq toward d, or noSquare off the board.
var step [numSquares][4]int8

// neighbours[sq] is the mask of sq's orthogonal neighbours.
var neighbours [numSquares]uint64

func init() {
	for sq := 0; sq < numSquares; sq++ {
		r, c := sq/boardSize, sq%boardSize
		dr := [4]int{1, 0, -1, 0}
		dc := [4]int{0, 1, 0, -1}
		for d := 0; d < 4; d++ {
			nr, nc := r+dr[d], c+dc[d]
			if nr < 0 || nr >= boardSize || nc < 0 || nc >= boardSize {
				step[sq][d] = noSquare
				continue
			}
			step[sq][d] = int8(nr*boardSize + nc)
			neighbours[sq] |= 1 << uint(nr*boardSize+nc)
		}
	}
}

// dirBetween is the direction from a to its orthogonal neighbour b, or -1.
func dirBetween(a, b int) int {
	for d := 0; d < 4; d++ {
		if int(step[a][d]) == b {
			return d
		}
	}
	return -1
}

// lineDir is the direction from a toward b when they share a row or column
// (a != b), or -1.
func lineDir(a, b int) int {
	ar, ac, br, bc := a/boardSize, a%boardSize, b/boardSize, b%boardSize
	switch {
	case a == b:
		return -1
	case ac == bc && br > ar:
		return north
	case ac == bc:
		return south
	case ar == br && bc > ac:
		return east
	case ar == br:
		return west
	}
	return -1
}

// board is the geometry of a position: which squares hold a piece of each
// overhang direction and of each player. dirs are disjoint and their union is
// the union of own.
type board struct {
	dirs [4]uint64
	own  [2]uint64
}

func (b *board) occ() uint64 { return b.own[0] | b.own[1] }

// at returns the owner (0/1) and direction of the piece on sq, or -1, -1.
func (b *board) at(sq int) (owner, dir int) {
	bit := uint64(1) << uint(sq)
	if b.occ()&bit == 0 {
		return -1, -1
	}
	owner = 0
	if b.own[1]&bit != 0 {
		owner = 1
	}
	for d := 0; d < 4; d++ {
		if b.dirs[d]&bit != 0 {
			return owner, d
		}
	}
	return owner, -1
}

// overhangs returns, per direction, the on-board squares overhung by the
// pieces leaning that way.
func (b *board) overhangs() (o [4]uint64) {
	o[north] = shift(b.dirs[north], north)
	o[east] = shift(b.dirs[east], east)
	o[south] = shift(b.dirs[south], south)
	o[west] = shift(b.dirs[west], west)
	return o
}

// inactive returns the pieces with an orthogonal neighbour of the same
// direction (either colour): the connected ones. Activity is always derived
// from the position, never stored.
func (b *board) inactive() uint64 {
	var in uint64
	for d := 0; d < 4; d++ {
		in |= b.dirs[d] & adj(b.dirs[d])
	}
	return in
}

// valid reports whether the position obeys the spec's validity rules:
//  1. an overhang into an occupied square needs the occupant's direction
//     (they are connected); anything else pokes into the occupant;
//  2. two overhangs from perpendicular sides never share a square (they
//     meet in its corner); with forbidOpposite, neither do opposite ones;
//  3. with closedEdge, no overhang sticks out past the board.
//
// Rule 2 is checked on every square, not only empty ones: on an occupied
// square two different overhang directions already break rule 1.
func (b *board) valid(r *rules) bool {
	occ := b.occ()
	var union uint64
	for d := 0; d < 4; d++ {
		if b.dirs[d]&union != 0 {
			return false
		}
		union |= b.dirs[d]
	}
	if union != occ || b.own[0]&b.own[1] != 0 || occ&^full != 0 {
		return false
	}
	o := b.overhangs()
	for d := 0; d < 4; d++ {
		if o[d]&occ&^b.dirs[d] != 0 {
			return false
		}
		if r.closedEdge && b.dirs[d]&offEdge[d] != 0 {
			return false
		}
	}
	if (o[north]|o[south])&(o[east]|o[west]) != 0 {
		return false
	}
	if r.forbidOpposite && (o[north]&o[south] != 0 || o[east]&o[west] != 0) {
		return false
	}
	return true
}

func (b *board) put(p, d, sq int) {
	bit := uint64(1) << uint(sq)
	b.dirs[d] |= bit
	b.own[p] |= bit
}

func (b *board) remove(p, d, sq int) {
	bit := uint64(1) << uint(sq)
	b.dirs[d] &^= bit
	b.own[p] &^= bit
}

func popcount(b uint64) int { return bits.OnesCount64(b) }
