package sgolte

import (
	"math/bits"
	"os/exec"
	"reflect"
	"slices"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

// TestArcsMatchRing: arcs, which reads a cell's neighbours with three
// shifts, and arcsW, which reads them with a multiplication (arcmagic.go),
// count the same arcs as walking the six neighbours round the cell (from
// the axial steps), for every cell of every size, in random sets, in the
// sets that hold all or none of the board, and in every pattern of the
// cell's neighbours.
func TestArcsMatchRing(t *testing.T) {
	rng := game.NewRNG(5)
	for size := 5; size <= 7; size++ {
		g := geometryFor(size)
		sets := []bitset{{}, g.all}
		for i := 0; i < 300; i++ {
			sets = append(sets, bitset{rng.Uint64(), rng.Uint64()}.and(g.all))
		}
		for c := 0; c < g.cells; c++ {
			r := int(g.row[c])
			x := int(g.col[c]) + max(0, r-(size-1))
			var ring [6]int
			for d, st := range axialSteps {
				ring[d] = g.axial(x+st[0], r+st[1])
			}
			// Every pattern of the cell's neighbours too, beside the random
			// sets: each of arcsW's table entries is then read.
			cellSets := sets
			for k := uint64(0); k < 64; k++ {
				var set bitset
				for j, d := 0, 0; d < 6; d++ {
					if ring[d] != noCell {
						if k>>j&1 == 1 {
							set = set.or(single(ring[d]))
						}
						j++
					}
				}
				cellSets = append(cellSets, set)
			}
			for _, set := range cellSets {
				want, in := 0, 0
				for d := 0; d < 6; d++ {
					here := ring[d] != noCell && set.has(ring[d])
					before := ring[(d+5)%6] != noCell && set.has(ring[(d+5)%6])
					if here {
						in++
						if !before {
							want++
						}
					}
				}
				if in == 6 {
					want = 1
				}
				if got := g.arcs(c, set); got != want {
					t.Fatalf("size %d cell %s: arcs = %d, ring walk %d", size, g.names[c], got, want)
				}
				if got := g.arcsW(c, word{set.lo}); g.cells <= wordCells && got != want {
					t.Fatalf("size %d cell %s: arcsW = %d, ring walk %d", size, g.names[c], got, want)
				}
			}
		}
	}
}

// TestArcMagicsKnown: every size-5 cell takes the multiplier written in
// arcMagics5 (buildArcMagics searches only when one fails, which costs
// every process's start a couple of milliseconds).
func TestArcMagicsKnown(t *testing.T) {
	g := geometryFor(5)
	if len(arcMagics5) != g.cells {
		t.Fatalf("%d multipliers for %d cells", len(arcMagics5), g.cells)
	}
	for c, m := range arcMagics5 {
		if g.arcM[c].magic != m {
			t.Errorf("cell %s: its multiplier %#x did not work (found %#x)", g.names[c], m, g.arcM[c].magic)
		}
	}
}

// TestNthBit: the branch-free select agrees with stepping through the bits.
func TestNthBit(t *testing.T) {
	rng := game.NewRNG(9)
	for i := 0; i < 20000; i++ {
		w := rng.Uint64() >> uint(rng.IntN(64))
		if i%7 == 0 {
			w = 1 << uint(rng.IntN(64))
		}
		if w == 0 {
			continue
		}
		n := rng.IntN(bits.OnesCount64(w))
		want := w
		for k := 0; k < n; k++ {
			want &= want - 1
		}
		if got := nthBit(w, n); got != bits.TrailingZeros64(want) {
			t.Fatalf("nthBit(%#x, %d) = %d, want %d", w, n, got, bits.TrailingZeros64(want))
		}
	}
}

// TestMemoMatchesSearch: in playouts under every option set, at every ply,
// every merge cell's flip sets read through the playout's book — from the
// merge-cell memo where it holds, searched where it does not — equal those
// of a fresh search of the position (and so do those searched with the
// book's groups alone). Thousands of positions, each with the memo in
// whatever state the playout so far has left it.
func TestMemoMatchesSearch(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 6
	}
	positions, kept := 0, 0
	for _, o := range conformanceOptions {
		for i := 0; i < games; i++ {
			st, err := Game.New(o, 0)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			var ug uniformGen
			ug.book.init(s)
			rng := game.NewRNG(uint64(i) + 100)
			for !s.over() {
				positions++
				empty := s.empty()
				merges := s.geo.mergeCells(s.stones[s.toMove], empty)
				var fresh tracer
				fresh.init(s)
				for m := merges; !m.isEmpty(); {
					p := m.pop()
					want := append([]bitset(nil), fresh.flipSets(p)...)
					booked := append([]bitset(nil), s.search(&ug.cs).bookFlipSets(p, &ug.book)...)
					// The memo's sets, in the order found, hold no repeats.
					got := slices.Clone(s.search(&ug.cs).memoFlipSets(p, &ug.book, &ug.memo))
					if n := len(got); len(sortUnique(got)) != n || !slices.Equal(got, want) || !slices.Equal(booked, want) {
						t.Fatalf("options %v seed %d, %s at %s: memo %v, book %v, search %v",
							o, i, mustJSON(t, s), s.geo.names[p], got, booked, want)
					}
					if len(got) > 0 {
						kept++
					}
				}
				s.randomPly(&ug.playoutGen, &rng, &ug.memo)
			}
		}
	}
	if kept < 1000 {
		t.Fatalf("only %d legal merge cells in %d positions", kept, positions)
	}
}

// TestWordEngineGenerated: the one-word copy of the playout engine
// (*_word.go) is what internal/wordgen makes of its templates today.
func TestWordEngineGenerated(t *testing.T) {
	cmd := exec.Command("go", "run", "./internal/wordgen", "-check")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestWordPlayoutsMatchBitset: on the default board, the playouts run on
// one-word sets play exactly the games the same code on bitset plays with
// the same random numbers, uniform and search playouts alike, from the
// start under every option set of that size and from mid-game positions.
func TestWordPlayoutsMatchBitset(t *testing.T) {
	var starts []*State
	for _, o := range conformanceOptions {
		st, err := Game.New(o, 0)
		if err != nil {
			t.Fatal(err)
		}
		if s := st.(*State); s.geo.cells <= wordCells {
			starts = append(starts, s)
		}
	}
	for i, l := range loadCorpus(t) {
		if i%25 == 3 {
			st, _ := Game.ParsePosition(l.Position)
			if s := st.(*State); s.geo.cells <= wordCells {
				starts = append(starts, s)
			}
		}
	}
	n := 20
	if testing.Short() {
		n = 4
	}
	for k, start := range starts {
		for i := 0; i < n; i++ {
			for _, search := range []bool{false, true} {
				a, b := *start, *start
				ra, rb := game.NewRNG(uint64(i)), game.NewRNG(uint64(i))
				var pa, pb int
				if search {
					pa, pb = a.SearchPlayout(&ra), b.searchPlayout(&rb)
				} else {
					pa, pb = a.Playout(&ra), b.playout(&rb)
				}
				if pa != pb || a != b || ra != rb {
					t.Fatalf("start %d seed %d search %v: words give %d plies %s, bitset %d plies %s",
						k, i, search, pa, mustJSON(t, &a), pb, mustJSON(t, &b))
				}
			}
		}
	}
}

// TestWordsRoundTrip: a state taken onto one-word sets and back is the
// same state, and the two state types have the same fields, so that a field
// added to State cannot be left out of the conversion unnoticed.
func TestWordsRoundTrip(t *testing.T) {
	if a, b := reflect.TypeOf(State{}).NumField(), reflect.TypeOf(stateW{}).NumField(); a != b {
		t.Fatalf("State has %d fields, stateW %d", a, b)
	}
	for _, st := range gametest.RandomStates(t, Game, nil, 11, 300) {
		s := st.(*State)
		w := s.words()
		var back State
		back.setWords(&w)
		if back != *s {
			t.Fatalf("round trip changed %s into %s", mustJSON(t, s), mustJSON(t, &back))
		}
	}
}
