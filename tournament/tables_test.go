package tournament

import (
	"slices"
	"testing"
)

func TestTableSizesThreeToForty(t *testing.T) {
	// worked by hand: the fewest tables of at most 8, as equal as may be
	want := map[int][]int{
		3: {3}, 4: {4}, 7: {7}, 8: {8}, 9: {5, 4}, 10: {5, 5}, 11: {6, 5}, 16: {8, 8},
		17: {6, 6, 5}, 23: {8, 8, 7}, 24: {8, 8, 8}, 25: {7, 6, 6, 6}, 33: {7, 7, 7, 6, 6}, 40: {8, 8, 8, 8, 8},
	}
	for n := 3; n <= 40; n++ {
		sizes, err := TableSizes(n, 0)
		if err != nil {
			t.Fatalf("%d players: %v", n, err)
		}
		sum := 0
		for _, s := range sizes {
			sum += s
			if s < MinTable || s > MaxTable || s < sizes[len(sizes)-1] || s > sizes[len(sizes)-1]+1 {
				t.Fatalf("%d players: sizes %v", n, sizes)
			}
		}
		if sum != n || len(sizes) != (n+7)/8 {
			t.Fatalf("%d players: sizes %v", n, sizes)
		}
		if w, ok := want[n]; ok && !slices.Equal(sizes, w) {
			t.Fatalf("%d players: %v, want %v", n, sizes, w)
		}
	}
	if s, _ := TableSizes(13, 4); !slices.Equal(s, []int{4, 3, 3, 3}) {
		t.Fatalf("13 at tables of 4: %v", s)
	}
	for _, bad := range [][2]int{{2, 8}, {0, 8}, {-1, 8}, {4, 3}, {5, 3}, {10, 9}, {10, 2}} {
		if s, err := TableSizes(bad[0], bad[1]); err == nil {
			t.Fatalf("%d players at tables of %d: %v, want an error", bad[0], bad[1], s)
		}
	}
}

func TestSeatTablesByStandings(t *testing.T) {
	order := []int{9, 3, 0, 1, 2, 4, 5, 6, 7, 8, 10}
	tables, err := SeatTables(order, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tables[0], []int{9, 3, 0, 1, 2, 4}) || !slices.Equal(tables[1], []int{5, 6, 7, 8, 10}) {
		t.Fatalf("%v", tables)
	}
}

// The documented placement table: at a table of 4 the points are 3, 2, 1,
// 0; two players tied for first share 3 and 2.
func TestPlacementPoints(t *testing.T) {
	cases := []struct {
		totals []int
		want   []float64
	}{
		{[]int{40, 12, 77, 25}, []float64{1, 3, 0, 2}},
		{[]int{12, 12, 30, 50}, []float64{2.5, 2.5, 1, 0}},
		{[]int{5, 5, 5}, []float64{1, 1, 1}},
		{[]int{-4, 100, 20, 20, 60, 0, 101, 3}, []float64{7, 1, 3.5, 3.5, 2, 6, 0, 5}},
	}
	for _, c := range cases {
		if got := PlacementPoints(c.totals); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.totals, got, c.want)
		}
	}
}

func TestTableStandingsTieBreakBySkyjoTotal(t *testing.T) {
	rounds := [][]TableGame{
		{{Players: []int{0, 1, 2}, Totals: []int{10, 20, 30}}, {Players: []int{3, 4, 5}, Totals: []int{15, 15, 40}}},
		{{Players: []int{0, 3, 4}, Totals: []int{50, 20, 35}}, {Players: []int{1, 2, 5}, Totals: []int{25, 60, 5}}},
	}
	st, err := TableStandings(6, rounds)
	if err != nil {
		t.Fatal(err)
	}
	// points: 0: 2+0=2, 1: 1+1=2, 2: 0+0=0, 3: 1.5+2=3.5, 4: 1.5+1=2.5, 5: 0+2=2
	// totals: 0: 60, 1: 45, 5: 45 — 1 and 5 share third place
	var got []int
	for _, s := range st {
		got = append(got, s.Player, s.Rank)
	}
	if !slices.Equal(got, []int{3, 1, 4, 2, 1, 3, 5, 3, 0, 5, 2, 6}) {
		t.Fatalf("player, rank: %v", got)
	}
	if st[0].Wins != 2 || st[0].SkyjoTotal != 35 || st[0].Games != 2 {
		t.Fatalf("%+v", st[0])
	}
	if _, err := TableStandings(3, [][]TableGame{{{Players: []int{0, 1, 1}, Totals: []int{1, 2, 3}}}}); err == nil {
		t.Fatal("a player seated twice was accepted")
	}
}
