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

// hasLine reports whether the colour whose balls are own has a line, given
// every occupied point occ.
func hasLine(own, occ uint32) bool {
	vis := own &^ covered(occ)
	for i := range windows {
		if lineIn(&windows[i], vis, occ) {
			return true
		}
	}
	return false
}

// lineThrough reports whether own has a line in a window that contains p.
// After a placement on p this is the whole check: a placement can only cover
// or cut other balls, so a new line must pass through the new ball.
func lineThrough(p int, own, occ uint32) bool {
	vis := own &^ covered(occ)
	for _, i := range through[p] {
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
