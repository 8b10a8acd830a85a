package sgolte

import "strconv"

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
	edge     bitset // the cells with fewer than six neighbours
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
	// The same tables as words, on boards of at most 64 cells (wordCells).
	allW  word
	nbrW  [maxCells]word
	edgeW word
	fwdW  [3][]shiftMaskW
	arcM  [wordCells]arcMagic // arcs on word (arcmagic.go)
	arcT  [wordCells][64]uint8
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
		if g.nbr[i].count() < 6 {
			g.edge = g.edge.or(single(i))
		}
	}
	g.buildWords()
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

// buildWords copies the tables into words, when the board fits one.
func (g *geometry) buildWords() {
	if g.cells > wordCells {
		return
	}
	g.allW = word{g.all.lo}
	g.edgeW = word{g.edge.lo}
	for i := 0; i < g.cells; i++ {
		g.nbrW[i] = word{g.nbr[i].lo}
	}
	for d := range g.fwd {
		for _, sm := range g.fwd[d] {
			g.fwdW[d] = append(g.fwdW[d], shiftMaskW{sm.by, word{sm.mask.lo}})
		}
	}
	g.buildArcMagics()
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
