package sgolte

import (
	"math/bits"
	"strconv"
)

// bitset is a set of cells. Two words cover the 127 cells of the largest
// board; on size 5 (61 cells) the high word stays zero, so every loop over
// it ends at once and the small board pays almost nothing for the big ones.
type bitset struct{ lo, hi uint64 }

// noCell is a bit index that no board uses (size 7 has cells 0…126): the
// neighbour that falls off the board.
const noCell = 127

// maxCells is the cell count of the largest board.
const maxCells = 127

func single(i int) bitset {
	if i < 64 {
		return bitset{lo: 1 << uint(i)}
	}
	return bitset{hi: 1 << uint(i-64)}
}

func (b bitset) and(c bitset) bitset    { return bitset{b.lo & c.lo, b.hi & c.hi} }
func (b bitset) or(c bitset) bitset     { return bitset{b.lo | c.lo, b.hi | c.hi} }
func (b bitset) andNot(c bitset) bitset { return bitset{b.lo &^ c.lo, b.hi &^ c.hi} }
func (b bitset) isEmpty() bool          { return b.lo|b.hi == 0 }
func (b bitset) count() int             { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }

// subsetOf reports whether every cell of b is in c.
func (b bitset) subsetOf(c bitset) bool { return b.lo&^c.lo|b.hi&^c.hi == 0 }

func (b bitset) has(i int) bool {
	if i < 64 {
		return b.lo>>uint(i)&1 != 0
	}
	return b.hi>>uint(i-64)&1 != 0
}

// first returns the lowest cell of a non-empty set.
func (b bitset) first() int {
	if b.lo != 0 {
		return bits.TrailingZeros64(b.lo)
	}
	return 64 + bits.TrailingZeros64(b.hi)
}

// pop removes and returns the lowest cell of a non-empty set.
func (b *bitset) pop() int {
	if b.lo != 0 {
		i := bits.TrailingZeros64(b.lo)
		b.lo &= b.lo - 1
		return i
	}
	i := bits.TrailingZeros64(b.hi)
	b.hi &= b.hi - 1
	return 64 + i
}

// nth returns the n-th lowest cell (0-based) of a set with more than n cells.
func (b bitset) nth(n int) int {
	if c := bits.OnesCount64(b.lo); n >= c {
		return 64 + nthBit(b.hi, n-c)
	}
	return nthBit(b.lo, n)
}

// nthBit returns the position of the n-th lowest set bit of a word with
// more than n bits set. It halves the word by counting, without branches
// (a playout picks a random empty cell at every ply, so they would be
// mispredicted half the time), then steps through the last byte.
func nthBit(w uint64, n int) int {
	at := 0
	low := bits.OnesCount32(uint32(w))
	up := int(uint(low-n-1) >> 63) // 1 if the bit is in the upper half
	n, at = n-low&-up, at+32&-up
	w >>= uint(32 & -up)
	low = bits.OnesCount16(uint16(w))
	up = int(uint(low-n-1) >> 63)
	n, at = n-low&-up, at+16&-up
	w >>= uint(16 & -up)
	low = bits.OnesCount8(uint8(w))
	up = int(uint(low-n-1) >> 63)
	n, at = n-low&-up, at+8&-up
	w >>= uint(8 & -up)
	for ; n > 0; n-- {
		w &= w - 1
	}
	return at + bits.TrailingZeros64(w)
}

// less orders sets as 128-bit numbers (high word first). It is the order of
// a placement's flip sets, which move numbers index.
func (b bitset) less(c bitset) bool {
	if b.hi != c.hi {
		return b.hi < c.hi
	}
	return b.lo < c.lo
}

// geometry holds the precomputed tables of one board size. Cells are
// numbered row by row from the bottom row a, left to right, which is also
// the canonical order of the notation (row letter, then number).
type geometry struct {
	size     int // side length n
	rows     int // 2n-1
	cells    int
	all      bitset
	rowStart [13]int
	rowLen   [13]int
	row      [maxCells]int8
	col      [maxCells]int8 // 0-based number within the row
	nbr      [maxCells]bitset
	// win locates each cell's six neighbours in a set's bits, for arcs: a
	// cell whose neighbours inside a set form one unbroken arc around it can
	// leave that set without disconnecting it.
	win   [maxCells]arcWindow
	names [maxCells]string
	// fwd[d] lists, for the three forward steps d (those to higher cell
	// numbers), the cells whose step-d neighbour lies at each distance:
	// shifting a set down by that distance and masking gives, bit-parallel,
	// the cells whose step-d neighbour is in the set.
	fwd [3][]shiftMask
}

type shiftMask struct {
	by   uint
	mask bitset
}

var geometries [3]geometry // sizes 5, 6, 7

func init() {
	for i := range geometries {
		geometries[i].build(5 + i)
	}
}

func geometryFor(size int) *geometry { return &geometries[size-5] }

// Axial coordinates (x, r): r is the row from the bottom, and x = k + max(0,
// r-mid) for the 0-based number k. In them the spec's neighbour rules become
// the six fixed steps below, listed in cyclic order around a cell.
var axialSteps = [6][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 0}, {-1, -1}, {0, -1}}

func (g *geometry) build(n int) {
	g.size = n
	g.rows = 2*n - 1
	mid := n - 1
	idx := 0
	for r := 0; r < g.rows; r++ {
		g.rowStart[r] = idx
		g.rowLen[r] = g.rows - abs(r-mid)
		for k := 0; k < g.rowLen[r]; k++ {
			g.row[idx] = int8(r)
			g.col[idx] = int8(k)
			g.names[idx] = string(rune('a'+r)) + strconv.Itoa(k+1)
			idx++
		}
	}
	g.cells = idx
	for i := 0; i < g.cells; i++ {
		g.all = g.all.or(single(i))
		r := int(g.row[i])
		x := int(g.col[i]) + max(0, r-mid)
		var ring [6]int
		for d, st := range axialSteps {
			j := g.axial(x+st[0], r+st[1])
			ring[d] = j
			if j != noCell {
				g.nbr[i] = g.nbr[i].or(single(j))
			}
			if j != noCell && d < 3 {
				g.addShift(d, uint(j-i), i)
			}
		}
		g.win[i] = newArcWindow(i, ring)
	}
}

func (g *geometry) addShift(d int, by uint, cell int) {
	for k := range g.fwd[d] {
		if g.fwd[d][k].by == by {
			g.fwd[d][k].mask = g.fwd[d][k].mask.or(single(cell))
			return
		}
	}
	g.fwd[d] = append(g.fwd[d], shiftMask{by, single(cell)})
}

// shr shifts a set down by 1…63 cells.
func (b bitset) shr(by uint) bitset {
	return bitset{b.lo>>by | b.hi<<(64-by), b.hi >> by}
}

// step returns the cells whose forward step-d neighbour is in set.
func (g *geometry) step(d int, set bitset) bitset {
	var out bitset
	for _, sm := range g.fwd[d] {
		out = out.or(set.shr(sm.by).and(sm.mask))
	}
	return out
}

// holeFree reports whether a group encloses nothing: no cell outside it is
// cut off from the edge of the board by it. By Euler's formula for the
// triangles of the cell lattice, a connected group has
// cells - links + triangles = 1 - holes.
func (g *geometry) holeFree(grp bitset) bool {
	e0, e1, e2 := g.step(0, grp).and(grp), g.step(1, grp).and(grp), g.step(2, grp).and(grp)
	links := e0.count() + e1.count() + e2.count()
	triangles := e0.and(e1).count() + e1.and(e2).count()
	return grp.count()-links+triangles == 1
}

// axial returns the cell at axial (x, r), or noCell off the board.
func (g *geometry) axial(x, r int) int {
	if r < 0 || r >= g.rows {
		return noCell
	}
	k := x - max(0, r-(g.size-1))
	if k < 0 || k >= g.rowLen[r] {
		return noCell
	}
	return g.rowStart[r] + k
}

// cellIndex returns the cell named by the 0-based row and number, or -1.
func (g *geometry) cellIndex(r, k int) int {
	if r < 0 || r >= g.rows || k < 0 || k >= g.rowLen[r] {
		return -1
	}
	return g.rowStart[r] + k
}

// dilate returns the cells next to any cell of set.
func (g *geometry) dilate(set bitset) bitset {
	var out bitset
	for set.lo != 0 {
		out = out.or(g.nbr[bits.TrailingZeros64(set.lo)])
		set.lo &= set.lo - 1
	}
	for set.hi != 0 {
		out = out.or(g.nbr[64+bits.TrailingZeros64(set.hi)])
		set.hi &= set.hi - 1
	}
	return out
}

// component returns the connected part of within that contains seed, and
// the cells next to it. It takes one cell at a time off a work set rather
// than dilating whole frontiers: groups are small, and this loop has no
// calls in it.
func (g *geometry) component(seed int, within bitset) (comp, halo bitset) {
	comp = single(seed)
	work := comp
	for !work.isEmpty() {
		nb := g.nbr[work.pop()]
		halo = halo.or(nb)
		add := nb.and(within).andNot(comp)
		comp = comp.or(add)
		work = work.or(add)
	}
	return comp, halo
}

// reachesAll reports whether the connected part of within around seed
// contains every cell of targets; it stops as soon as it does.
func (g *geometry) reachesAll(seed int, within, targets bitset) bool {
	comp := single(seed)
	work := comp
	for !work.isEmpty() {
		add := g.nbr[work.pop()].and(within).andNot(comp)
		if add.isEmpty() {
			continue
		}
		comp = comp.or(add)
		if targets.subsetOf(comp) {
			return true
		}
		work = work.or(add)
	}
	return targets.subsetOf(comp)
}

// isCut reports whether taking cell c out of set (which holds c) splits the
// connected part of set around c into two or more parts.
//
// When that part encloses no hole, a cheaper exact test exists (see
// chainSearch.cut): two neighbours on different arcs around c could only
// be joined by a path that, with c, encircles the cells between the arcs.
func (g *geometry) isCut(c int, set bitset) bool {
	nb := g.nbr[c].and(set)
	if k := nb.count(); k <= 1 || k >= 5 {
		// No neighbour left behind, one, or all but one around c: they
		// cannot fall apart.
		return false
	}
	if g.arcs(c, set) <= 1 {
		// The neighbours left behind touch each other around c.
		return false
	}
	return !g.reachesAll(nb.first(), set.andNot(single(c)), nb)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
