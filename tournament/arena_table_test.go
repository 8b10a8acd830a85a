package tournament

import (
	"slices"
	"testing"
)

// TestArenaSheetTable: one player's games in order (W win, D draw, L loss;
// a trailing b berserk), and the points each scores: a streak doubles from
// the third win in a row until a game is not won; a draw on fire scores 2
// and ends the streak; a berserk adds 1 to a win only, never doubled.
func TestArenaSheetTable(t *testing.T) {
	for _, tc := range []struct {
		games  []string
		sheet  []int
		onFire bool
	}{
		{[]string{"W", "W"}, []int{2, 2}, true},
		{[]string{"W", "W", "W", "W"}, []int{2, 2, 4, 4}, true},
		{[]string{"W", "W", "D", "W"}, []int{2, 2, 2, 2}, false},
		{[]string{"W", "W", "W", "D", "W", "W", "W"}, []int{2, 2, 4, 2, 2, 2, 4}, true},
		{[]string{"W", "W", "L", "W"}, []int{2, 2, 0, 2}, false},
		{[]string{"Wb", "Wb", "Wb"}, []int{3, 3, 5}, true},
		{[]string{"Db", "Lb", "Wb"}, []int{1, 0, 3}, false},
		{[]string{"D", "D", "D"}, []int{1, 1, 1}, false},
	} {
		var games []ArenaGame
		for i, g := range tc.games {
			res := map[byte]Result{'W': WhiteWins, 'D': Draw, 'L': BlackWins}[g[0]]
			games = append(games, ArenaGame{White: 0, Black: 1 + i%2, Result: res, WhiteBerserk: len(g) > 1})
		}
		st, err := ArenaStandings(3, games, ArenaOptions{Clock: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range st {
			if s.Player != 0 {
				continue
			}
			sum := 0
			for _, p := range tc.sheet {
				sum += p
			}
			if !slices.Equal(s.Sheet, tc.sheet) || s.Points != sum || s.OnFire != tc.onFire {
				t.Errorf("%v: sheet %v (%d points, on fire %v), want %v (%d, %v)", tc.games, s.Sheet, s.Points, s.OnFire, tc.sheet, sum, tc.onFire)
			}
		}
	}
}

// TestPairArenaTable: who is paired with whom among the free players
// (points; -1 no last opponent), never the last opponent when another
// pairing of the same players avoids it, the odd one left to wait.
func TestPairArenaTable(t *testing.T) {
	for _, tc := range []struct {
		name    string
		points  []int
		last    []int
		want    [][2]int // pairs, lower player first
		waiting int      // the player left, or -1
	}{
		{"neighbours", []int{9, 8, 5, 4}, []int{-1, -1, -1, -1}, [][2]int{{0, 1}, {2, 3}}, -1},
		{"not again", []int{9, 8, 5, 4}, []int{1, 0, -1, -1}, [][2]int{{0, 2}, {1, 3}}, -1},
		{"not again, both pairs", []int{9, 8, 7, 6}, []int{1, 0, 3, 2}, [][2]int{{0, 2}, {1, 3}}, -1},
		{"two who just met play again rather than wait", []int{3, 1}, []int{1, 0}, [][2]int{{0, 1}}, -1},
		{"odd: the lowest waits", []int{9, 8, 1}, []int{-1, -1, -1}, [][2]int{{0, 1}}, 2},
		{"odd: the nearest pair plays, though the leader waits", []int{9, 8, 7}, []int{1, 0, -1}, [][2]int{{1, 2}}, 0},
		{"odd: of pairs as near, the higher ones play", []int{9, 8, 7, 6, 5}, []int{-1, -1, -1, -1, -1}, [][2]int{{0, 1}, {2, 3}}, 4},
		{"one player waits", []int{5}, []int{-1}, nil, 0},
	} {
		var w []ArenaWaiting
		for p := range tc.points {
			w = append(w, ArenaWaiting{Player: p, Points: tc.points[p], LastOpponent: tc.last[p]})
		}
		got := PairArena(w)
		var pairs [][2]int
		in := map[int]bool{}
		for _, pr := range got {
			pairs = append(pairs, [2]int{min(pr.White, pr.Black), max(pr.White, pr.Black)})
			in[pr.White], in[pr.Black] = true, true
		}
		slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
		if !slices.Equal(pairs, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, pairs, tc.want)
		}
		if tc.waiting >= 0 && in[tc.waiting] {
			t.Errorf("%s: player %d should wait", tc.name, tc.waiting)
		}
	}
}
