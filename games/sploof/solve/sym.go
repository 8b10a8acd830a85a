package solve

import "github.com/tabula-games/tabula/games/sploof"

// The pyramid looks the same under the 8 symmetries of the square (turns
// and reflections of the top view), and so do the rules: platforms, pins,
// drop chains, bridges and the 24 windows all map onto themselves. A
// position and its 7 images have one value, so the table stores them once,
// under the smallest of their 8 keys.

// numSyms is the order of the square's symmetry group.
const numSyms = 8

var (
	// perm[s][p] is the image of point p under symmetry s (s = 0 is the
	// identity).
	perm [numSyms][sploof.NumPoints]uint8
	// inv[s] is the index of the inverse of symmetry s.
	inv [numSyms]int
	// pointKey[s][p][k] is what a ball of kind k (white, black, red) on
	// point p adds to the board key of the image under s: a white ball
	// sets its image's bit in the low plane, a black one in the high plane,
	// a red one in both.
	pointKey [numSyms][sploof.NumPoints][3]uint64
	// maskTab[s][c][v] is the image under s of the points 8c…8c+7 whose
	// bits are v: mapMask in four lookups.
	maskTab [numSyms][4][256]uint32
)

// Kinds of ball, the index of pointKey.
const (
	kindWhite = 0
	kindBlack = 1
	kindRed   = 2
)

// symXY maps top-view coordinates (0…6) under symmetry s: bit 0 reflects x,
// bit 1 reflects y, bit 2 swaps the axes (after the reflections).
func symXY(s, x, y int) (int, int) {
	if s&1 != 0 {
		x = 6 - x
	}
	if s&2 != 0 {
		y = 6 - y
	}
	if s&4 != 0 {
		x, y = y, x
	}
	return x, y
}

func init() {
	for s := 0; s < numSyms; s++ {
		for p := 0; p < sploof.NumPoints; p++ {
			h, x, y := sploof.PointXY(p)
			sx, sy := symXY(s, x, y)
			q := sploof.PointAt(h, sx, sy)
			if q < 0 {
				panic("solve: a symmetry maps a point off the pyramid")
			}
			perm[s][p] = uint8(q)
			pointKey[s][p][kindWhite] = 1 << q
			pointKey[s][p][kindBlack] = 1 << (q + planeBits)
			pointKey[s][p][kindRed] = 1<<q | 1<<(q+planeBits)
		}
		for c := 0; c < 4; c++ {
			for v := 1; v < 256; v++ {
				var out uint32
				for b := 0; b < 8; b++ {
					if p := 8*c + b; v&(1<<b) != 0 && p < sploof.NumPoints {
						out |= 1 << perm[s][p]
					}
				}
				maskTab[s][c][v] = out
			}
		}
	}
	for s := 0; s < numSyms; s++ {
		for t := 0; t < numSyms; t++ {
			ok := true
			for p := 0; p < sploof.NumPoints; p++ {
				if perm[t][perm[s][p]] != uint8(p) {
					ok = false
					break
				}
			}
			if ok {
				inv[s] = t
			}
		}
	}
}

// mapMove is the image of a move (a point, or RemoveFlag plus a point)
// under symmetry s.
func mapMove(s int, m uint8) uint8 {
	if m >= sploof.RemoveFlag {
		return sploof.RemoveFlag + perm[s][m-sploof.RemoveFlag]
	}
	return perm[s][m]
}

// mapMask is the image of a set of points under symmetry s.
func mapMask(s int, m uint32) uint32 {
	t := &maskTab[s]
	return t[0][m&255] | t[1][m>>8&255] | t[2][m>>16&255] | t[3][m>>24&255]
}
