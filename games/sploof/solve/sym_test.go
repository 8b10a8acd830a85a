package solve

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// The images of a position are built here from the spec's notation alone:
// a point "<level><column><row>" sits at top-view (column, row) of a 7×7
// grid, and a symmetry of the square moves it to another top-view place on
// the same level. Nothing of the solver's tables is used, so the test checks
// them — and the rules engine's symmetry — from outside.

// imageXY is top-view (x, y) under symmetry s of the square: s&1 reflects
// x, s&2 reflects y, s&4 swaps the axes.
func imageXY(s, x, y int) (int, int) {
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

// imageName maps a point name ("2d4") or a removal ("*1a1") under s.
func imageName(s int, name string) string {
	pre, pt := "", name
	if strings.HasPrefix(name, "*") {
		pre, pt = "*", name[1:]
	}
	x, y := imageXY(s, int(pt[1]-'a'), int(pt[2]-'1'))
	return pre + string([]byte{pt[0], byte('a' + x), byte('1' + y)})
}

// imageLevels maps the position text's level pictures (each level top row
// first; level h has n = 5-h rows, and its row r, column c, counted from
// the bottom left, is top-view (2c+h-1, 2r+h-1)).
func imageLevels(s int, levels []string) []string {
	cells := map[string]byte{}
	for h := 1; h <= 4; h++ {
		n := 5 - h
		for i, row := range strings.Split(levels[h-1], "/") {
			r := n - 1 - i
			for c := 0; c < n; c++ {
				name := string([]byte{byte('0' + h), byte('a' + 2*c + h - 1), byte('1' + 2*r + h - 1)})
				cells[imageName(s, name)] = row[c]
			}
		}
	}
	out := make([]string, 4)
	for h := 1; h <= 4; h++ {
		n := 5 - h
		var rows []string
		for r := n - 1; r >= 0; r-- {
			var b []byte
			for c := 0; c < n; c++ {
				b = append(b, cells[string([]byte{byte('0' + h), byte('a' + 2*c + h - 1), byte('1' + 2*r + h - 1)})])
			}
			rows = append(rows, string(b))
		}
		out[h-1] = strings.Join(rows, "/")
	}
	return out
}

// image returns the position s seen under symmetry k, read back by the
// rules engine from its position text.
func image(t *testing.T, s *sploof.State, k int) *sploof.State {
	t.Helper()
	data, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	var lv []string
	for _, l := range p["levels"].([]any) {
		lv = append(lv, l.(string))
	}
	p["levels"] = imageLevels(k, lv)
	data, _ = json.Marshal(p)
	st, err := sploof.Game{}.ParsePosition(data)
	if err != nil {
		t.Fatalf("image %d: %v", k, err)
	}
	return st.(*sploof.State)
}

func legalNames(s *sploof.State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

// TestMirrorImages: for positions from random games, each of the 8 images
// has the mirrored legal moves (the rules are symmetric), the same canonical
// key in the solver's table (its symmetry maps are right), and the same
// solved value (winner and length), each solved with a fresh table.
func TestMirrorImages(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	positions, solved := 0, 0
	for seed := uint64(1); seed <= uint64(games); seed++ {
		ps := gamePositions(1000 + seed)
		// Three per game: late, middle (solved with a budget) and early
		// (keys and moves only).
		for _, i := range []int{len(ps) - 3, len(ps) - 8, len(ps) / 3} {
			if i < 0 {
				continue
			}
			s := ps[i]
			n0, err := nodeFromBits(s.Bits())
			if err != nil {
				t.Fatal(err)
			}
			key0, _ := n0.key()
			moves0 := legalNames(s)
			sol0, err := New(1<<20).Solve(context.Background(), s, 200000)
			if err != nil {
				t.Fatal(err)
			}
			for k := 1; k < numSyms; k++ {
				im := image(t, s, k)
				var want []string
				for _, m := range moves0 {
					want = append(want, imageName(k, m))
				}
				slices.Sort(want)
				if got := legalNames(im); !slices.Equal(got, want) {
					t.Fatalf("seed %d ply %d image %d: legal moves %v, want the images %v", seed, i, k, got, want)
				}
				n, err := nodeFromBits(im.Bits())
				if err != nil {
					t.Fatal(err)
				}
				if key, _ := n.key(); key != key0 {
					t.Fatalf("seed %d ply %d image %d: key %x, the original's %x", seed, i, k, key, key0)
				}
				if !sol0.Proven {
					continue
				}
				sol, err := New(1<<20).Solve(context.Background(), im, 0)
				if err != nil || !sol.Proven || sol.Winner != sol0.Winner || sol.Plies != sol0.Plies {
					t.Fatalf("seed %d ply %d image %d: %+v %v, the original: seat %d wins in %d",
						seed, i, k, sol, err, sol0.Winner, sol0.Plies)
				}
				checkLine(t, im, sol)
			}
			positions++
			if sol0.Proven {
				solved++
			}
		}
	}
	t.Logf("%d positions, 8 images each, %d of them solved", positions, solved)
}

// TestKeyOfBitsByTables: the canonical key computed by lookup tables
// (mapMask) is the one the definition gives — every point moved by perm
// under each symmetry, the smallest board kept — with the same symmetry,
// on every position of 200 random games and on random planes that overlap.
func TestKeyOfBitsByTables(t *testing.T) {
	byPoints := func(b sploof.Bits) (uint64, int) {
		best, bs := ^uint64(0), 0
		for s := 0; s < numSyms; s++ {
			var lo, hi uint64
			for p := 0; p < sploof.NumPoints; p++ {
				q := uint(perm[s][p])
				switch bit := uint32(1) << p; {
				case b.White&bit != 0:
					lo |= 1 << q
				case b.Black&bit != 0:
					hi |= 1 << q
				case b.Red&bit != 0:
					lo |= 1 << q
					hi |= 1 << q
				}
			}
			if k := lo | hi<<30; k < best {
				best, bs = k, s
			}
		}
		return best | uint64(14-b.Supply[0])/2<<60 | uint64(b.ToMove)<<63, bs
	}
	var all []sploof.Bits
	for seed := uint64(1); seed <= 200; seed++ {
		for _, st := range gamePositions(seed) {
			all = append(all, st.Bits())
		}
	}
	rng := game.NewRNG(5)
	const points = 1<<sploof.NumPoints - 1
	for range 10000 {
		all = append(all, sploof.Bits{White: uint32(rng.Uint64()) & points, Black: uint32(rng.Uint64()) & points,
			Red: uint32(rng.Uint64()) & points, Supply: [2]uint8{uint8(2 * rng.IntN(8))}, ToMove: rng.IntN(2)})
	}
	for _, b := range all {
		wk, ws := byPoints(b)
		if k, s := keySymOfBits(b); k != wk || s != ws {
			t.Fatalf("%+v: key %016x under symmetry %d, by points %016x under %d", b, k, s, wk, ws)
		}
	}
}

// BenchmarkKeyOfBits: canonical keys of the positions of 50 random games,
// the leaf search's most frequent step.
func BenchmarkKeyOfBits(b *testing.B) {
	var all []sploof.Bits
	for seed := uint64(1); seed <= 50; seed++ {
		for _, st := range gamePositions(seed) {
			all = append(all, st.Bits())
		}
	}
	b.ResetTimer()
	var x uint64
	for i := 0; i < b.N; i++ {
		x += keyOfBits(all[i%len(all)])
	}
	sinkKey = x
}

var sinkKey uint64
