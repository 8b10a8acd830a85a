package tournament

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the best (cardinality, weight) over every matching,
// by trying each edge in or out: the independent check of the blossom code.
func bruteMatching(n int, edges []Edge, maxCard bool) (int, int64) {
	used := make([]bool, n)
	bestC, bestW := 0, int64(0)
	var rec func(k, c int, w int64)
	rec = func(k, c int, w int64) {
		if k == len(edges) {
			better := w > bestW
			if maxCard {
				better = c > bestC || c == bestC && w > bestW
			}
			if better {
				bestC, bestW = c, w
			}
			return
		}
		rec(k+1, c, w)
		e := edges[k]
		if !used[e.I] && !used[e.J] {
			used[e.I], used[e.J] = true, true
			rec(k+1, c+1, w+e.W)
			used[e.I], used[e.J] = false, false
		}
	}
	rec(0, 0, 0)
	return bestC, bestW
}

func checkMatching(t *testing.T, n int, edges []Edge, mate []int) (int, int64) {
	t.Helper()
	w := map[[2]int]int64{}
	for _, e := range edges {
		a, b := min(e.I, e.J), max(e.I, e.J)
		if old, ok := w[[2]int{a, b}]; !ok || e.W > old {
			w[[2]int{a, b}] = e.W
		}
	}
	c, total := 0, int64(0)
	for v, u := range mate {
		if u < 0 {
			continue
		}
		if mate[u] != v {
			t.Fatalf("mate not symmetric: %d→%d but %d→%d", v, u, u, mate[u])
		}
		ew, ok := w[[2]int{min(u, v), max(u, v)}]
		if !ok {
			t.Fatalf("%d–%d matched without an edge", v, u)
		}
		if v < u {
			c++
			total += ew
		}
	}
	return c, total
}

func TestMatchingKnownCases(t *testing.T) {
	cases := []struct {
		n     int
		edges []Edge
		card  bool
		want  []int
	}{
		{2, []Edge{{0, 1, 1}}, false, []int{1, 0}},
		// a path of three edges: the middle one alone weighs more
		{4, []Edge{{0, 1, 5}, {1, 2, 11}, {2, 3, 5}}, false, []int{-1, 2, 1, -1}},
		// …but with maximum cardinality both outer edges are taken
		{4, []Edge{{0, 1, 5}, {1, 2, 11}, {2, 3, 5}}, true, []int{1, 0, 3, 2}},
		// a triangle with a pendant: a blossom forms at 0-1-2
		{4, []Edge{{0, 1, 8}, {0, 2, 9}, {1, 2, 10}, {2, 3, 7}}, false, []int{1, 0, 3, 2}},
		// Van Rantwijk's S-blossom relabelled as T and expanded
		{8, []Edge{{0, 1, 8}, {0, 2, 8}, {1, 2, 10}, {1, 3, 12}, {2, 4, 12}, {3, 4, 14}, {3, 5, 12}, {4, 6, 12}, {5, 6, 14}, {6, 7, 12}}, false, []int{1, 0, 4, 5, 2, 3, 7, 6}},
		// a nested S-blossom, augmented through
		{6, []Edge{{0, 1, 9}, {0, 2, 9}, {1, 2, 10}, {1, 3, 8}, {2, 4, 8}, {3, 4, 10}, {4, 5, 6}}, false, []int{2, 3, 0, 1, 5, 4}},
	}
	for i, c := range cases {
		got := MaxWeightMatching(c.n, c.edges, c.card)
		for v := range got {
			if got[v] != c.want[v] {
				t.Errorf("case %d: got %v, want %v", i, got, c.want)
				break
			}
		}
	}
}

func TestMatchingAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		n := 1 + rng.IntN(10)
		var edges []Edge
		p := rng.Float64()
		maxW := int64(1 + rng.IntN(30))
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.Float64() < p {
					edges = append(edges, Edge{i, j, rng.Int64N(maxW) + 1})
				}
			}
		}
		if len(edges) > 22 {
			edges = edges[:22]
		}
		for _, card := range []bool{false, true} {
			mate := MaxWeightMatching(n, edges, card)
			c, w := checkMatching(t, n, edges, mate)
			bc, bw := bruteMatching(n, edges, card)
			if card && (c != bc || w != bw) || !card && w != bw {
				t.Fatalf("n=%d card=%v edges=%v: got (%d,%d), brute force (%d,%d)", n, card, edges, c, w, bc, bw)
			}
		}
	}
}

// TestMatchingWideWeights checks the 192-bit arithmetic: weights whose high
// word decides must give the matching that the same order in 64 bits gives.
func TestMatchingWideWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 500; iter++ {
		n := 2 + rng.IntN(9)
		var small []Edge
		var big []wideEdge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n && len(small) < 20; j++ {
				if rng.IntN(2) == 0 {
					a, b := rng.Int64N(5), rng.Int64N(1000)
					small = append(small, Edge{i, j, a*1_000_000 + b})
					big = append(big, wideEdge{i, j, wide{hi: a, lo: uint64(b)}.shl(0).add(wide{hi: a << 3})})
				}
			}
		}
		mate := matchWide(n, big, true)
		c, w := checkMatching(t, n, small, mate)
		bc, bw := bruteMatching(n, small, true)
		if c != bc || w != bw {
			t.Fatalf("n=%d edges=%v: got (%d,%d), brute force (%d,%d)", n, small, c, w, bc, bw)
		}
	}
}

func TestWideArithmetic(t *testing.T) {
	a := wideOf(-3)
	if got := a.add(wideOf(5)); got != wideOf(2) {
		t.Fatalf("-3+5 = %v", got)
	}
	if got := wideOf(2).sub(wideOf(5)); got != wideOf(-3) {
		t.Fatalf("2-5 = %v", got)
	}
	if got := wideOf(-7).half(); got != wideOf(-4) {
		t.Fatalf("-7>>1 = %v", got)
	}
	x := wideOf(1).shl(63).shl(10)
	if x.hi != 0 || x.mid != 1<<9 || x.lo != 0 {
		t.Fatalf("1<<73 = %v", x)
	}
	y := x.shl(63).shl(10)
	if y.hi != 1<<18 || y.mid != 0 || y.lo != 0 {
		t.Fatalf("1<<146 = %v", y)
	}
	if got := y.sub(wideOf(1)).add(wideOf(1)); got != y {
		t.Fatalf("borrow across the words: %v", got)
	}
	if got := wideOf(-1).shl(63).shl(63).half(); got != wideOf(-1).shl(63).shl(62) {
		t.Fatalf("-2^126>>1 = %v", got)
	}
	if !wideOf(-1).less(wideOf(0)) || wideOf(0).less(wideOf(-1)) || !wideOf(1).less(x) || !x.less(y) || wideOf(-1).shl(63).shl(63).less(wideOf(-1).shl(63).shl(63).shl(1)) {
		t.Fatal("less is wrong across the sign and words")
	}
}
