package tournament

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FIDE's Berger tables (Handbook C.05, Annex 1), board by board.
var bergerTables = map[int][]string{
	4: {"1-4 2-3", "4-3 1-2", "2-4 3-1"},
	6: {"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"},
	8: {"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
		"3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"},
	10: {"1-10 2-9 3-8 4-7 5-6", "10-6 7-5 8-4 9-3 1-2", "2-10 3-1 4-9 5-8 6-7",
		"10-7 8-6 9-5 1-4 2-3", "3-10 4-2 5-1 6-9 7-8", "10-8 9-7 1-6 2-5 3-4",
		"4-10 5-3 6-2 7-1 8-9", "10-9 1-8 2-7 3-6 4-5", "5-10 6-4 7-3 8-2 9-1"},
}

func boards(r Round) string {
	var s []string
	for _, p := range r.Pairings {
		s = append(s, fmt.Sprintf("%d-%d", p.White+1, p.Black+1))
	}
	return strings.Join(s, " ")
}

func TestBergerTables(t *testing.T) {
	for n, table := range bergerTables {
		if RoundRobinRounds(n, false) != len(table) {
			t.Fatalf("%d players: %d rounds", n, RoundRobinRounds(n, false))
		}
		for r, want := range table {
			got, err := RoundRobinRound(n, r, false)
			if err != nil {
				t.Fatal(err)
			}
			if boards(got) != want || len(got.Byes) != 0 {
				t.Errorf("%d players, round %d: %q, want %q", n, r+1, boards(got), want)
			}
		}
	}
}

// An odd number uses the next table, the highest number being the bye:
// 5 players play the 6-player table, and whoever meets 6 sits out.
func TestBergerOdd(t *testing.T) {
	table := bergerTables[6]
	if RoundRobinRounds(5, false) != 5 {
		t.Fatal("5 players need 5 rounds")
	}
	for r, full := range table {
		got, err := RoundRobinRound(5, r, false)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		var bye string
		for _, b := range strings.Fields(full) {
			w, bl, _ := strings.Cut(b, "-")
			switch {
			case w == "6":
				bye = bl
			case bl == "6":
				bye = w
			default:
				want = append(want, b)
			}
		}
		if boards(got) != strings.Join(want, " ") || len(got.Byes) != 1 || fmt.Sprint(got.Byes[0]+1) != bye {
			t.Errorf("round %d: %q bye %v, want %q bye %s", r+1, boards(got), got.Byes, want, bye)
		}
	}
}

// A double round robin meets everyone twice, once with each colour, and
// nobody has one colour three times running.
func TestBergerDoubleAndLimits(t *testing.T) {
	for n := 2; n <= MaxRoundRobinPlayers; n++ {
		for _, double := range []bool{false, true} {
			var rounds []Round
			for r := 0; r < RoundRobinRounds(n, double); r++ {
				rd, err := RoundRobinRound(n, r, double)
				if err != nil {
					t.Fatal(err)
				}
				rounds = append(rounds, rd)
			}
			if err := checkRounds(n, rounds, false); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			games := map[[2]int]int{}
			for _, rd := range rounds {
				for _, p := range rd.Pairings {
					games[[2]int{p.White, p.Black}]++
				}
			}
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					if a == b {
						continue
					}
					ab, ba := games[[2]int{a, b}], games[[2]int{b, a}]
					want := 1
					if double {
						if ab != 1 || ba != 1 {
							t.Fatalf("n=%d double: %d-%d %d times, %d-%d %d times", n, a+1, b+1, ab, b+1, a+1, ba)
						}
						continue
					}
					if ab+ba != want {
						t.Fatalf("n=%d: %d and %d meet %d times", n, a+1, b+1, ab+ba)
					}
				}
			}
			h := histories(n, rounds)
			for p := range h {
				var played []int8
				for _, c := range h[p].colour {
					if c != noColour {
						played = append(played, c)
					}
				}
				for i := 2; i < len(played); i++ {
					if played[i] == played[i-1] && played[i] == played[i-2] && n%2 == 0 {
						t.Fatalf("n=%d double=%v: player %d has %v", n, double, p+1, played)
					}
				}
				if h[p].byes != len(rounds)-len(slices.DeleteFunc(slices.Clone(h[p].opp), func(o int) bool { return o < 0 })) {
					t.Fatalf("n=%d: player %d's rounds without a game are not all byes", n, p+1)
				}
			}
		}
	}
	if _, err := RoundRobinRound(17, 0, false); err == nil {
		t.Fatal("17 players accepted")
	}
	if _, err := RoundRobinRound(4, 3, false); err == nil {
		t.Fatal("round 4 of 3 accepted")
	}
}
