package sgolte

// The cut test asks, for a cell c of a set, into how many unbroken arcs the
// set's cells among c's six neighbours fall. It runs for nearly every stone
// a chain search looks at, so it reads the six neighbours with three shifts
// of one word rather than six separate bit tests.
//
// Cells are numbered row by row, so in a set's bits c's neighbours lie in
// three places: the pair below it (south-west, south-east), c's own row
// (west, c, east) and the pair above it (north-west, north-east). Shifted
// down to the lowest of them, all six fit in one word; arcPattern packs them
// into seven bits, one of them c itself, which the mask drops.

// arcWindow says where a cell's neighbours lie. In the word w<<1, where w
// is the set shifted down by base, the pair below is at bits lo-1 and lo
// (seen from lo), the row at mid-1, mid, mid+1, and the pair above at up-1
// and up; valid keeps the pattern bits of the neighbours on the board.
type arcWindow struct {
	base, lo, mid, up, valid uint8
}

// Pattern bits: the pair below, then west, c, east, then the pair above.
const (
	patSW = 1 << iota
	patSE
	patW
	patSelf
	patE
	patNW
	patNE
)

// arcRuns[m] is the number of unbroken arcs of neighbours in pattern m.
var arcRuns = func() (t [128]uint8) {
	cyclic := [6]int{patE, patNE, patNW, patW, patSW, patSE} // the order of axialSteps
	for m := range t {
		ring := 0
		for d, bit := range cyclic {
			if m&bit != 0 {
				ring |= 1 << d
			}
		}
		n := 0
		for d := 0; d < 6; d++ {
			if ring>>d&1 == 1 && ring>>((d+5)%6)&1 == 0 {
				n++
			}
		}
		if ring == 63 {
			n = 1 // a full ring has no ends
		}
		t[m] = uint8(n)
	}
	return t
}()

// newArcWindow builds the window of cell c from its neighbours in the cyclic
// order of axialSteps (noCell off the board).
func newArcWindow(c int, ring [6]int) arcWindow {
	e, ne, nw, w, sw, se := ring[0], ring[1], ring[2], ring[3], ring[4], ring[5]
	base := c
	for _, j := range ring {
		if j != noCell {
			base = min(base, j)
		}
	}
	var a arcWindow
	a.base = uint8(base)
	// A pair is read from its right cell; with only its left cell on the
	// board, from the cell after that (one the mask then drops).
	pair := func(left, right int, lbit, rbit uint8) uint8 {
		switch {
		case right != noCell:
			a.valid |= rbit
			if left != noCell {
				a.valid |= lbit
			}
			return uint8(right - base)
		case left != noCell:
			a.valid |= lbit
			return uint8(left + 1 - base)
		}
		return 0
	}
	a.lo = pair(sw, se, patSW, patSE)
	a.up = pair(nw, ne, patNW, patNE)
	a.mid = uint8(c - base)
	if w != noCell {
		a.valid |= patW
	}
	if e != noCell {
		a.valid |= patE
	}
	return a
}
