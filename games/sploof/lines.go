package sploof

import "math/bits"

// window is one of the 24 places a line can appear.
//
// pts holds every point of the window; a colour has a line when it owns the
// topmost ball at all four top-view positions of the window, which is
// popcount(visible & pts) == 4 because at most one point per position is
// visible. For the 8 level-1 rows and columns, cuts holds the pairs of
// level-2 points that cut the window when both are occupied (the bridges).
type window struct {
	pts  uint32
	cuts [3]uint32
}

// windows: the 4 level-1 rows (bottom to top), the 4 level-1 columns (left to
// right), then the 16 diagonal windows.
var windows [24]window

func buildWindows() {
	w := 0
	for r := 0; r < 4; r++ { // rows: fixed level-row r
		for c := 0; c < 4; c++ {
			windows[w].pts |= 1 << pointIndex(1, r, c)
		}
		if r > 0 && r < 3 {
			// Level-2 balls (r-1, j) and (r, j) bridge row r between
			// columns j and j+1.
			for j := 0; j < 3; j++ {
				windows[w].cuts[j] = 1<<pointIndex(2, r-1, j) | 1<<pointIndex(2, r, j)
			}
		}
		w++
	}
	for c := 0; c < 4; c++ { // columns: fixed level-column c
		for r := 0; r < 4; r++ {
			windows[w].pts |= 1 << pointIndex(1, r, c)
		}
		if c > 0 && c < 3 {
			for j := 0; j < 3; j++ {
				windows[w].cuts[j] = 1<<pointIndex(2, j, c-1) | 1<<pointIndex(2, j, c)
			}
		}
		w++
	}
	// Diagonals: four consecutive top-view positions with step (1, ±1) whose
	// start has both coordinates of the same parity (so every position holds
	// points).
	for _, dy := range []int{1, -1} {
		for x0 := 0; x0 <= 3; x0++ {
			for y0 := 0; y0 <= 6; y0++ {
				if (x0+y0)%2 != 0 || y0+3*dy < 0 || y0+3*dy > 6 {
					continue
				}
				for k := 0; k < 4; k++ {
					for _, p := range atTop[x0+k][y0+k*dy] {
						if p >= 0 {
							windows[w].pts |= 1 << p
						}
					}
				}
				w++
			}
		}
	}
	if w != len(windows) {
		panic("sploof: window count")
	}
}

// Top-view bitboards: bit 8y+x is the top-view position (x, y); column 7 is
// always empty, so shifted runs never wrap from one row into the next.
var (
	topL1  [2][256]uint64 // level-1 bits 0…7 and 8…15
	topL2  [512]uint64    // level-2 bits
	topL34 [32]uint64     // level-3 bits and the apex
)

func buildTopView() {
	for p, pt := range points {
		bit := uint64(1) << (8*pt.y + pt.x)
		switch {
		case p < 8:
			fill(topL1[0][:], p, bit)
		case p < 16:
			fill(topL1[1][:], p-8, bit)
		case p < 25:
			fill(topL2[:], p-16, bit)
		default:
			fill(topL34[:], p-25, bit)
		}
	}
}

// fill ORs bit into every table entry whose index has bit i set.
func fill(t []uint64, i int, bit uint64) {
	for j := range t {
		if j&(1<<i) != 0 {
			t[j] |= bit
		}
	}
}

// hasLine reports whether the colour whose balls are own has a line, given
// every occupied point occ. It is the windows' rule computed for all 24 at
// once: rows and columns from the level-1 bits less their bridges, diagonals
// as runs of four in the top view of the visible balls.
func hasLine(own, occ uint32) bool {
	// A line needs four balls of the colour: a third of the placements of
	// a random game come before, and skip the rest.
	if bits.OnesCount32(own) < 4 {
		return false
	}
	vis := own &^ covered(occ)
	// Level 1 is column-major (bit 4c+r): a row steps by 4, a column by 1.
	l1 := vis & level1
	rows := l1 & (l1 >> 4) & (l1 >> 8) & (l1 >> 12) & 0xF   // bit r
	cols := l1 & (l1 >> 1) & (l1 >> 2) & (l1 >> 3) & 0x1111 // bit 4c
	if rows|cols != 0 {
		o2 := (occ >> 16) & 0x1FF
		// Level-2 (r-1, j) and (r, j), bits 3j+r-1 and 3j+r, bridge row r.
		y := o2 & (o2 >> 1)
		if y&0x49 != 0 {
			rows &^= 1 << 1
		}
		if y&0x92 != 0 {
			rows &^= 1 << 2
		}
		// Level-2 (j, c-1) and (j, c), bits 3(c-1)+j and 3c+j, bridge
		// column c.
		z := o2 & (o2 >> 3)
		if z&0x7 != 0 {
			cols &^= 1 << 4
		}
		if z&0x38 != 0 {
			cols &^= 1 << 8
		}
		if rows|cols != 0 {
			return true
		}
	}
	tv := topL1[0][vis&0xFF] | topL1[1][(vis>>8)&0xFF] | topL2[(vis>>16)&0x1FF] | topL34[(vis>>25)&0x1F]
	up := tv & (tv >> 9) & (tv >> 18) & (tv >> 27)   // step (1, 1)
	down := tv & (tv << 7) & (tv << 14) & (tv << 21) // step (1, -1)
	return up|down != 0
}

// hasLineSlow is hasLine window by window, straight from the definition of
// the windows; the tests hold the two equal.
func hasLineSlow(own, occ uint32) bool {
	vis := own &^ covered(occ)
	for i := range windows {
		if lineIn(&windows[i], vis, occ) {
			return true
		}
	}
	return false
}

func lineIn(w *window, vis, occ uint32) bool {
	if bits.OnesCount32(vis&w.pts) != 4 {
		return false
	}
	for _, c := range w.cuts {
		if c != 0 && occ&c == c {
			return false
		}
	}
	return true
}
