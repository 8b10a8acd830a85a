package skjuub

// An independent, geometric second path for the project's model of the
// skjuub: each piece is built as a sheared unit cube (base a unit square,
// upright edges of length 1 leaning toward the overhang direction), and
// connection, collision and the tumble are derived by sampling points of
// these solids, then compared with the fast bitboard rules that play the game.
//
// The shear (how far the top is shifted, as a fraction of the square) is the
// one free parameter of the model. Any shear below 1/2 gives the spec's
// default reading (two overhangs from opposite sides fit over one empty
// square); a shear above 1/2 makes those two overhangs collide, which is
// exactly opposite_overhangs=forbid.

import (
	"fmt"
	"math"
	"testing"
)

type vec3 struct{ x, y, z float64 }

var geoDX = [4]float64{0, 1, 0, -1} // N E S W
var geoDY = [4]float64{1, 0, -1, 0}

// cube is a sheared unit cube standing on cell (cx, cy) and leaning toward
// direction dir by shear: local coordinates (u, v, w) ∈ [0,1]³ map to
// (cx+u+shear·w·dx, cy+v+shear·w·dy, h·w) with h = √(1−shear²), so the
// upright edges keep length 1.
type cube struct {
	cx, cy, dx, dy, shear, h float64
}

func newCube(cx, cy, dir int, shear float64) cube {
	return cube{float64(cx), float64(cy), geoDX[dir], geoDY[dir], shear, math.Sqrt(1 - shear*shear)}
}

func (c cube) point(u, v, w float64) vec3 {
	return vec3{c.cx + u + c.shear*w*c.dx, c.cy + v + c.shear*w*c.dy, c.h * w}
}

func (c cube) local(q vec3) (u, v, w float64) {
	w = q.z / c.h
	return q.x - c.cx - c.shear*w*c.dx, q.y - c.cy - c.shear*w*c.dy, w
}

// strictlyInside: q is in the interior, at least eps from every face.
func (c cube) strictlyInside(q vec3, eps float64) bool {
	u, v, w := c.local(q)
	return u > eps && u < 1-eps && v > eps && v < 1-eps && w > eps && w < 1-eps
}

// inClosure: q is in the solid or on its surface (within eps).
func (c cube) inClosure(q vec3, eps float64) bool {
	u, v, w := c.local(q)
	return u > -eps && u < 1+eps && v > -eps && v < 1+eps && w > -eps && w < 1+eps
}

const geoEps = 1e-9

// collide reports whether the interiors of a and b intersect, by sampling a
// grid of interior points of a.
func collide(a, b cube) bool {
	const n = 16
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for k := 0; k < n; k++ {
				if b.strictlyInside(a.point((float64(i)+.5)/n, (float64(j)+.5)/n, (float64(k)+.5)/n), geoEps) {
					return true
				}
			}
		}
	}
	return false
}

// connected reports whether a whole lateral face of a lies on b's surface:
// the spec's "side fully connected to a similarly shaped side".
func connected(a, b cube) bool {
	const n = 9
	faces := []func(s, t float64) vec3{
		func(s, t float64) vec3 { return a.point(0, s, t) },
		func(s, t float64) vec3 { return a.point(1, s, t) },
		func(s, t float64) vec3 { return a.point(s, 0, t) },
		func(s, t float64) vec3 { return a.point(s, 1, t) },
	}
	for _, f := range faces {
		all := true
		for i := 0; i <= n && all; i++ {
			for j := 0; j <= n && all; j++ {
				q := f(float64(i)/n, float64(j)/n)
				all = b.inClosure(q, 1e-7) && !b.strictlyInside(q, 1e-7)
			}
		}
		if all {
			return true
		}
	}
	return false
}

type geoClass int

const (
	geoFree geoClass = iota
	geoConnected
	geoCollision
)

func (c geoClass) String() string { return [...]string{"free", "connected", "collision"}[c] }

func classify(a, b cube) geoClass {
	switch {
	case collide(a, b) || collide(b, a):
		return geoCollision
	case connected(a, b):
		if !connected(b, a) {
			panic("contact is not symmetric")
		}
		return geoConnected
	}
	return geoFree
}

// engineClass classifies the same pair with the game's bitboard rules.
func engineClass(ax, ay, ad, bx, by, bd int, r *rules) geoClass {
	var b board
	b.put(0, ad, ay*boardSize+ax)
	b.put(1, bd, by*boardSize+bx)
	switch {
	case !b.valid(r):
		return geoCollision
	case b.inactive() == b.occ():
		return geoConnected
	case b.inactive() == 0:
		return geoFree
	}
	return -1 // one inactive without the other: impossible
}

// shears: below 1/2 is the default reading, above it opposite_overhangs=forbid.
var shears = []struct {
	shear float64
	r     *rules
}{
	{0.25, &rules{}},
	{0.45, &rules{}},
	{0.55, &rules{forbidOpposite: true}},
	{0.8, &rules{forbidOpposite: true}},
}

// Every pair of directions at every relative position within distance 2
// (the empty-square clashes are the diagonal and two-apart cases).
func TestGeometryPairsMatchRules(t *testing.T) {
	const ax, ay = 2, 2 // c3: every offset within 2 stays on the board
	counts := map[string]int{}
	for _, sh := range shears {
		for ad := 0; ad < 4; ad++ {
			for bd := 0; bd < 4; bd++ {
				for dy := -2; dy <= 2; dy++ {
					for dx := -2; dx <= 2; dx++ {
						if dx == 0 && dy == 0 {
							continue
						}
						a := newCube(ax, ay, ad, sh.shear)
						b := newCube(ax+dx, ay+dy, bd, sh.shear)
						geo := classify(a, b)
						eng := engineClass(ax, ay, ad, ax+dx, ay+dy, bd, sh.r)
						counts[fmt.Sprintf("%.2f %v", sh.shear, geo)]++
						if geo != eng {
							t.Errorf("shear %.2f: %s:%c with %s:%c: geometry says %v, rules say %v",
								sh.shear, squareName(ay*6+ax), dirLetters[ad], squareName((ay+dy)*6+ax+dx), dirLetters[bd], geo, eng)
						}
					}
				}
			}
		}
	}
	t.Log(counts)
}

// Whole positions: a position is physically possible iff no two pieces
// collide (and, with a closed edge, none leans past the board); a piece is
// inactive iff it is connected to some other piece.
func TestGeometryRandomPositionsMatchRules(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	seed := uint64(1)
	next := func(k int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(k))
	}
	for _, sh := range shears[1:3] {
		for _, closed := range []bool{false, true} {
			r := *sh.r
			r.closedEdge = closed
			valids := 0
			for i := 0; i < n; i++ {
				// 3–7 pieces crowded into a 4×4 corner so that they interact.
				var b board
				var cubes []cube
				var squares []int
				for k := 3 + next(5); k > 0; k-- {
					x, y, d := next(4), next(4), next(4)
					sq := y*6 + x
					if b.occ()&(1<<uint(sq)) != 0 {
						continue
					}
					b.put(next(2), d, sq)
					cubes = append(cubes, newCube(x, y, d, sh.shear))
					squares = append(squares, sq)
				}
				geoValid := true
				var geoInactive uint64
				for p := range cubes {
					if closed {
						for _, w := range []float64{0, 1} {
							for _, u := range []float64{0, 1} {
								for _, v := range []float64{0, 1} {
									q := cubes[p].point(u, v, w)
									if q.x < -geoEps || q.x > 6+geoEps || q.y < -geoEps || q.y > 6+geoEps {
										geoValid = false
									}
								}
							}
						}
					}
					for q := p + 1; q < len(cubes); q++ {
						switch classify(cubes[p], cubes[q]) {
						case geoCollision:
							geoValid = false
						case geoConnected:
							geoInactive |= 1<<uint(squares[p]) | 1<<uint(squares[q])
						}
					}
				}
				if got := b.valid(&r); got != geoValid {
					t.Fatalf("shear %.2f closed %v: %v: rules valid=%v, geometry %v", sh.shear, closed, describe(&b), got, geoValid)
				}
				if geoValid {
					valids++
					if got := b.inactive(); got != geoInactive {
						t.Fatalf("%v: rules inactive %x, geometry %x", describe(&b), got, geoInactive)
					}
				}
			}
			if valids == 0 {
				t.Errorf("shear %.2f closed %v: no valid random position", sh.shear, closed)
			}
		}
	}
}

func describe(b *board) string {
	s := ""
	for sq := 0; sq < numSquares; sq++ {
		if p, d := b.at(sq); p >= 0 {
			s += fmt.Sprintf("%s:%d%c ", squareName(sq), p+1, dirLetters[d])
		}
	}
	return s
}

// tumbled rolls cube c over the bottom edge of its front face (forward) or
// back face (backward) until it rests on the ground again, and returns the
// vertices of the result. The rotation is in the vertical plane of the
// lean, about the edge, and stops at the first angle at which a vertex off
// the axis touches the ground.
func tumbled(c cube, forward bool) (vs [8]vec3, rot func(q vec3, phi float64) vec3, phiEnd float64) {
	// Pivot: the middle of the bottom edge of the front face (half a
	// square toward the lean from the base centre) or of the back face.
	half := -0.5
	if forward {
		half = 0.5
	}
	pivot := vec3{c.cx + 0.5 + half*c.dx, c.cy + 0.5 + half*c.dy, 0}
	sign := 1.0 // forward: the top moves toward the lean
	if !forward {
		sign = -1
	}
	rot = func(q vec3, phi float64) vec3 {
		// a: along the lean from the pivot; z: up; the rest lies along
		// the rotation axis and does not change.
		rx, ry := q.x-pivot.x, q.y-pivot.y
		a := rx*c.dx + ry*c.dy
		restX, restY := rx-a*c.dx, ry-a*c.dy
		ang := sign * phi
		na := a*math.Cos(ang) + q.z*math.Sin(ang)
		nz := -a*math.Sin(ang) + q.z*math.Cos(ang)
		return vec3{pivot.x + restX + na*c.dx, pivot.y + restY + na*c.dy, nz}
	}
	var corners [8]vec3
	for i := 0; i < 8; i++ {
		corners[i] = c.point(float64(i&1), float64(i>>1&1), float64(i>>2))
	}
	onAxis := func(q vec3) bool {
		return math.Abs((q.x-pivot.x)*c.dx+(q.y-pivot.y)*c.dy) < 1e-9 && q.z < 1e-9
	}
	minZ := func(phi float64) float64 {
		m := math.Inf(1)
		for _, q := range corners {
			if !onAxis(q) {
				m = math.Min(m, rot(q, phi).z)
			}
		}
		return m
	}
	lo := 1e-3
	for minZ(lo) > 0 {
		lo += 1e-3
		if lo > math.Pi {
			panic("no landing")
		}
	}
	hi, lo := lo, lo-1e-3
	for i := 0; i < 60; i++ {
		mid := (lo + hi) / 2
		if minZ(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	phiEnd = (lo + hi) / 2
	for i, q := range corners {
		vs[i] = rot(q, phiEnd)
	}
	return vs, rot, phiEnd
}

// landing reads the resting solid: its base cell and lean direction.
func landing(vs [8]vec3) (cx, cy, dir int, ok bool) {
	var base, top []vec3
	for _, q := range vs {
		if math.Abs(q.z) < 1e-6 {
			base = append(base, q)
		} else {
			top = append(top, q)
		}
	}
	if len(base) != 4 {
		return 0, 0, 0, false
	}
	var bc, tc vec3
	minx, miny := math.Inf(1), math.Inf(1)
	for i := range base {
		bc.x += base[i].x / 4
		bc.y += base[i].y / 4
		tc.x += top[i].x / 4
		tc.y += top[i].y / 4
		minx, miny = math.Min(minx, base[i].x), math.Min(miny, base[i].y)
	}
	cx, cy = int(math.Round(minx)), int(math.Round(miny))
	if math.Abs(minx-float64(cx)) > 1e-6 || math.Abs(miny-float64(cy)) > 1e-6 {
		return 0, 0, 0, false
	}
	ox, oy := tc.x-bc.x, tc.y-bc.y
	for d := 0; d < 4; d++ {
		if ox*geoDX[d]+oy*geoDY[d] > 1e-6 && math.Abs(ox*geoDY[d]-oy*geoDX[d]) < 1e-6 {
			return cx, cy, d, true
		}
	}
	return 0, 0, 0, false
}

// The tumble's landing square and new direction, derived by rolling the
// solid, match the rules (forward → c+d, backward → c−d, both facing −d).
func TestGeometryTumbleLanding(t *testing.T) {
	for _, shear := range []float64{0.3, 0.45, 0.7} {
		for d := 0; d < 4; d++ {
			for _, fwd := range []bool{true, false} {
				c := newCube(2, 2, d, shear)
				vs, _, _ := tumbled(c, fwd)
				x, y, nd, ok := landing(vs)
				if !ok {
					t.Fatalf("shear %.2f dir %c forward=%v: the rolled solid does not rest on a square", shear, dirLetters[d], fwd)
				}
				// The engine: play the tumble.
				from := sq("c3")
				var want int
				if fwd {
					want = int(step[from][d])
				} else {
					want = int(step[from][opposite(d)])
				}
				s := setup{pieces: fmt.Sprintf("c3:1%c f6:2E", dirLetters[d])}.load(t)
				mustPlay(t, s, squareName(from)+"~"+squareName(want))
				p, ed := s.b.at(want)
				if p != 0 || y*6+x != want || nd != ed {
					t.Errorf("shear %.2f c3:%c forward=%v: geometry lands on %s facing %c, engine on %s facing %c",
						shear, dirLetters[d], fwd, squareName(y*6+x), dirLetters[nd], squareName(want), dirLetters[ed])
				}
			}
		}
	}
}

// sweepHits reports whether the rolling piece passes through b on its way.
func sweepHits(c cube, forward bool, b cube) bool {
	_, rot, phiEnd := tumbled(c, forward)
	const steps, n = 36, 12
	for k := 1; k < steps; k++ {
		phi := phiEnd * float64(k) / steps
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				for l := 0; l < n; l++ {
					q := rot(c.point((float64(i)+.5)/n, (float64(j)+.5)/n, (float64(l)+.5)/n), phi)
					if b.strictlyInside(q, geoEps) {
						return true
					}
				}
			}
		}
	}
	return false
}

// The sweep of a tumble: with tumble=end a tumble is legal when its end
// position is; with tumble=sweep also only when the rolling solid passes
// through no piece. The rolled solid is checked against a second piece at
// every position within distance 2 and every direction.
func TestGeometryTumbleSweep(t *testing.T) {
	// Short runs (CI's default) check the first piece facing two of the
	// four directions, which still covers a forward and a sideways sweep;
	// the full run checks all four.
	dirs := 4
	if testing.Short() {
		dirs = 2
	}
	const shear = 0.4
	hits := 0
	for ad := 0; ad < dirs; ad++ {
		for bd := 0; bd < 4; bd++ {
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					if dx == 0 && dy == 0 {
						continue
					}
					bsq := (2+dy)*6 + 2 + dx
					pieces := fmt.Sprintf("c3:1%c %s:2%c", dirLetters[ad], squareName(bsq), dirLetters[bd])
					u := setup{pieces: pieces}
					if !u.isValid(t) || !isActive(u.load(t), "c3") {
						// Only active pieces tumble. (An inactive one
						// could not roll forward anyway: its back edge
						// lifts into the overhang of the piece behind.)
						continue
					}
					a := newCube(2, 2, ad, shear)
					b := newCube(2+dx, 2+dy, bd, shear)
					for _, fwd := range []bool{true, false} {
						vs, _, _ := tumbled(a, fwd)
						x, y, nd, _ := landing(vs)
						to := y*6 + x
						txt := "c3~" + squareName(to)
						endOK := to != bsq && classify(newCube(x, y, nd, shear), b) != geoCollision
						// The sweep matters only when the end position is
						// possible; then it must hit exactly in the spec's
						// case: forward, into the overhang of the piece two
						// squares ahead facing back.
						hit := endOK && sweepHits(a, fwd, b)
						special := fwd && dx == 2*int(geoDX[ad]) && dy == 2*int(geoDY[ad]) && bd == opposite(ad)
						if endOK && hit != special {
							t.Errorf("%s %s: sweep hits=%v, the spec's sweep case=%v", pieces, txt, hit, special)
						}
						if hit {
							hits++
						}
						for _, opt := range []string{"end", "sweep"} {
							u.opts = map[string]string{"tumble": opt}
							s := u.load(t)
							want := endOK && (opt == "end" || !hit)
							if got := hasMove(s, txt); got != want {
								t.Errorf("%s %s tumble=%s: engine legal=%v, geometry end ok=%v sweep hits=%v", pieces, txt, opt, got, endOK, hit)
							}
						}
					}
				}
			}
		}
	}
	if hits != dirs {
		t.Errorf("%d possible tumbles sweep through the other piece, want the %d cases of the spec (one per direction)", hits, dirs)
	}
}
