package sploof

import (
	"math/bits"

	"github.com/tabula-games/tabula/games/internal/bitsel"
)

// The pyramid's 30 points are the bits of a uint32. Level h (1…4) holds an
// n×n square, n = 5-h, and the point at level-row r and level-column c is
// bit levelOff[h] + c*n + r. Column-major order is deliberate: ascending bit
// order is then the byte order of the point names ("1a1" < "1a3" < "1c1" …
// < "2b2" …), so Legal's removals-then-placements come out already sorted the
// way `tabula moves` prints them.
const (
	numPoints = 30

	level1 uint32 = 0xFFFF      // bits 0…15
	level2 uint32 = 0x1FF << 16 // bits 16…24
	level3 uint32 = 0xF << 25   // bits 25…28
	apex   uint32 = 1 << 29     // bit 29
	all    uint32 = level1 | level2 | level3 | apex

	// centreHoles are the four level-1 points that start empty: (c, r) in
	// {1, 2}², bits 5, 6, 9, 10. The other twelve start with reds.
	centreHoles uint32 = 0x660
)

// levelOff is the first bit of each level (index 0 unused).
var levelOff = [5]int{0, 0, 16, 25, 29}

// pointIndex is the bit of level h, level-row r, level-column c.
func pointIndex(h, r, c int) int { return levelOff[h] + c*(5-h) + r }

// point is the geometry of one point: its level and level coordinates, and
// where it lies in the 7×7 top view (x = column a…g, y = row 1…7, 0-based).
type point struct {
	h, r, c int
	x, y    int
}

var (
	points [numPoints]point
	// below[p] is the four points p rests on (0 on level 1).
	below [numPoints]uint32
	// above[p] is the points of the next level up that rest on p.
	above [numPoints]uint32
	// atTop[x][y] lists the points at a top-view position, lowest first
	// (-1 where there is none): a level-1 or level-2 point, and over four of
	// them a level-3 point or the apex.
	atTop [7][7][2]int8
	// chains[red][q-16] is the drop chain when the only ball resting on the
	// level-1 point red is the level-2 point q: red, q, then the points
	// straight on along the same top-view diagonal, one level up each step.
	chains [16][9]chain
)

// chain is a straight run of points, one level apart, lowest first.
type chain struct {
	pts [4]int8
	n   int8
}

func init() {
	for h := 1; h <= 4; h++ {
		n := 5 - h
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				p := pointIndex(h, r, c)
				points[p] = point{h: h, r: r, c: c, x: 2*c + h - 1, y: 2*r + h - 1}
			}
		}
	}
	for x := range atTop {
		for y := range atTop[x] {
			atTop[x][y] = [2]int8{-1, -1}
		}
	}
	for p, pt := range points {
		cell := &atTop[pt.x][pt.y]
		if cell[0] < 0 {
			cell[0] = int8(p)
		} else {
			cell[1] = int8(p)
		}
		if pt.h == 1 {
			continue
		}
		for dr := 0; dr < 2; dr++ {
			for dc := 0; dc < 2; dc++ {
				q := pointIndex(pt.h-1, pt.r+dr, pt.c+dc)
				below[p] |= 1 << q
				above[q] |= 1 << p
			}
		}
	}
	for red := 0; red < 16; red++ {
		for m := above[red]; m != 0; m &= m - 1 {
			q := bits.TrailingZeros32(m)
			dx, dy := points[q].x-points[red].x, points[q].y-points[red].y
			ch := chain{n: 2}
			ch.pts[0], ch.pts[1] = int8(red), int8(q)
			for k := 2; k < 4; k++ {
				x, y := points[red].x+k*dx, points[red].y+k*dy
				if x < 0 || y < 0 || x > 6 || y > 6 {
					break
				}
				next := pointAt(x, y, k+1)
				if next < 0 {
					break
				}
				ch.pts[k] = int8(next)
				ch.n++
			}
			chains[red][q-16] = ch
		}
	}
	buildWindows()
	buildTopView()
}

// pointAt is the point of level h at top-view (x, y), or -1.
func pointAt(x, y, h int) int {
	for _, p := range atTop[x][y] {
		if p >= 0 && points[p].h == h {
			return int(p)
		}
	}
	return -1
}

// supported is the set of points that rest on four occupied points (every
// level-1 point counts as supported), computed for all levels at once.
func supported(occ uint32) uint32 {
	// Level 2, column-major with stride 4 on level 1: point (c, r) needs
	// level-1 bits c*4+r, +1, +4, +5. Bits with r = 3 or c = 3 are garbage
	// and fall away when the stride-4 result is packed to stride 3.
	a := occ & (occ >> 1) & (occ >> 4) & (occ >> 5)
	s2 := a&0x7 | (a>>1)&(0x7<<3) | (a>>2)&(0x7<<6)
	o2 := occ >> 16
	b := o2 & (o2 >> 1) & (o2 >> 3) & (o2 >> 4)
	s3 := b&0x3 | (b>>1)&(0x3<<2)
	s4 := uint32(0)
	if occ&level3 == level3 {
		s4 = apex
	}
	return level1 | s2<<16 | s3<<25 | s4
}

// pinned is the set of level-1 points with at least two occupied level-2
// points above them.
func pinned(occ uint32) uint32 {
	o2 := (occ >> 16) & 0x1FF
	// Spread level 2 (stride 3) onto level-1 stride 4: bit c*4+r is the
	// level-2 point (c, r), which lies over level-1 points (c..c+1, r..r+1).
	e := o2&0x7 | (o2&(0x7<<3))<<1 | (o2&(0x7<<6))<<2
	a, b, c, d := e, e<<1, e<<4, e<<5
	return (a&b | c&d | (a|b)&(c|d)) & level1
}

// covered is the set of points hidden from above by a ball directly over
// them: the four centre holes under level 3, the centre of level 2 under the
// apex.
func covered(occ uint32) uint32 {
	// Level-3 point (c, r) = bit 25+2c+r lies over level-1 (c+1, r+1) =
	// bit 4c+r+5.
	return (occ>>20)&(0x3<<5) | (occ>>18)&(0x3<<9) | (occ>>9)&(1<<20)
}

// selectBit returns the index of the k-th (0-based) set bit of m, which has
// more than k set bits: two halvings by popcount, then a byte table. It is
// branch-free because k is random, which a predictor cannot learn.
func selectBit(m uint32, k int) int {
	n := bits.OnesCount32(m & 0xFFFF)
	hi := int(uint(n-1-k) >> 63) // 1 when the bit is in the upper half
	k -= hi * n
	base := hi << 4
	m >>= uint(base)
	n = bits.OnesCount32(m & 0xFF)
	hi = int(uint(n-1-k) >> 63)
	k -= hi * n
	base += hi << 3
	m >>= uint(hi << 3)
	return base + bitsel.InByte(uint8(m), k)
}
