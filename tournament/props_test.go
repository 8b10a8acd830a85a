package tournament

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// Property tests over random tournaments. Each recomputes what it checks
// from the stored games in the plainest way, independently of the code
// under test.

// plainPoints sums the points of every stored Swiss or round-robin game.
func plainPoints(n int, rounds []Round) (pts []float64, wins []int) {
	pts, wins = make([]float64, n), make([]int, n)
	for _, rd := range rounds {
		for _, p := range rd.Pairings {
			switch p.Result {
			case WhiteWins:
				pts[p.White]++
				wins[p.White]++
			case BlackWins:
				pts[p.Black]++
				wins[p.Black]++
			case Draw:
				pts[p.White] += 0.5
				pts[p.Black] += 0.5
			}
		}
		for _, b := range rd.Byes {
			pts[b]++
		}
	}
	return pts, wins
}

func checkStandings(t *testing.T, n int, rounds []Round, tbs []TieBreak) {
	t.Helper()
	st, err := Standings(n, rounds, tbs)
	if err != nil {
		t.Fatal(err)
	}
	pts, wins := plainPoints(n, rounds)
	seen := map[int]bool{}
	for i, s := range st {
		seen[s.Player] = true
		if s.Points != pts[s.Player] || s.Wins != wins[s.Player] {
			t.Fatalf("player %d: %v points %d wins, recomputed %v %d", s.Player+1, s.Points, s.Wins, pts[s.Player], wins[s.Player])
		}
		if i > 0 && (st[i-1].Points < s.Points || st[i-1].Rank > s.Rank) {
			t.Fatalf("standings out of order at line %d", i+1)
		}
	}
	if len(seen) != n {
		t.Fatalf("%d of %d players in the standings", len(seen), n)
	}
}

func TestPropertySwiss(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for iter := 0; iter < 25; iter++ {
		n := 11 + rng.IntN(50)
		rounds := 4 + rng.IntN(6)
		out := map[int]bool{}
		late := map[int]int{}
		for p := 0; p < n; p++ {
			if rng.IntN(10) == 0 {
				late[p] = 1 + rng.IntN(3)
			}
		}
		var hist []Round
		for r := 0; r < rounds; r++ {
			var active []int
			for p := 0; p < n; p++ {
				if !out[p] && late[p] <= r {
					active = append(active, p)
				}
			}
			rd, err := PairSwiss(n, hist, active, SwissOptions{})
			if errors.Is(err, ErrNoPairing) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			checkAbsolute(t, n, hist, rd, active) // once a round, no rematch, one bye, colour limits
			for i := range rd.Pairings {
				rd.Pairings[i].Result = randomResult(rng)
			}
			hist = append(hist, rd)
			if rng.IntN(4) == 0 {
				out[rng.IntN(n)] = true
			}
		}
		checkStandings(t, n, hist, SwissTieBreaks)
	}
}

func TestPropertyRoundRobin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 2; n <= MaxRoundRobinPlayers; n++ {
		var hist []Round
		for r := 0; r < RoundRobinRounds(n, n%3 == 0); r++ {
			rd, err := RoundRobinRound(n, r, n%3 == 0)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rd.Pairings {
				rd.Pairings[i].Result = randomResult(rng)
			}
			hist = append(hist, rd)
			if err := checkRounds(n, hist, true); err != nil {
				t.Fatal(err)
			}
		}
		checkStandings(t, n, hist, RoundRobinTieBreaks)
	}
}

// plainArena scores arena games from scratch: a win 2, a draw 1, doubled
// after two straight wins, +1 for a berserk win.
func plainArena(n int, games []ArenaGame) []int {
	pts := make([]int, n)
	run := make([]int, n)
	for _, g := range games {
		for _, side := range []struct {
			p       int
			score   int
			berserk bool
		}{
			{g.White, map[Result]int{WhiteWins: 2, Draw: 1}[g.Result], g.WhiteBerserk},
			{g.Black, map[Result]int{BlackWins: 2, Draw: 1}[g.Result], g.BlackBerserk},
		} {
			v := side.score
			if run[side.p] >= 2 {
				v *= 2
			}
			if side.berserk && side.score == 2 {
				v++
			}
			pts[side.p] += v
			if side.score == 2 {
				run[side.p]++
			} else {
				run[side.p] = 0
			}
		}
	}
	return pts
}

func TestPropertyArena(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for iter := 0; iter < 30; iter++ {
		n := 2 + rng.IntN(60)
		a := NewArena(ArenaOptions{Clock: true})
		for p := 0; p < n; p++ {
			if err := a.Join(p, rng.IntN(2000)); err != nil {
				t.Fatal(err)
			}
		}
		busy := map[int]bool{}
		var live []Pairing
		for step := 0; step < 400; step++ {
			switch rng.IntN(10) {
			case 0:
				a.Pause(rng.IntN(n))
			case 1:
				a.Resume(rng.IntN(n))
			case 2:
				a.Withdraw(rng.IntN(n))
			case 3:
				a.Join(rng.IntN(n), 1500)
			case 4, 5:
				prs, err := a.Pair()
				if err != nil {
					t.Fatal(err)
				}
				for _, pr := range prs {
					for _, p := range []int{pr.White, pr.Black} {
						if busy[p] {
							t.Fatalf("player %d paired while playing", p+1)
						}
						busy[p] = true
					}
				}
				live = append(live, prs...)
			default:
				if len(live) == 0 {
					continue
				}
				i := rng.IntN(len(live))
				pr := live[i]
				live = append(live[:i], live[i+1:]...)
				g := ArenaGame{White: pr.White, Black: pr.Black, Result: randomResult(rng), WhiteBerserk: rng.IntN(4) == 0, BlackBerserk: rng.IntN(4) == 0}
				if err := a.Finish(g); err != nil {
					t.Fatal(err)
				}
				busy[pr.White], busy[pr.Black] = false, false
			}
		}
		a.End()
		for _, pr := range live {
			if err := a.Finish(ArenaGame{White: pr.White, Black: pr.Black, Result: Draw}); err != nil {
				t.Fatal(err)
			}
		}
		want := plainArena(n, a.Games())
		for _, s := range a.Standings() {
			if s.Points != want[s.Player] {
				t.Fatalf("player %d: %d points, recomputed %d", s.Player+1, s.Points, want[s.Player])
			}
		}
	}
}

func TestPropertyTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for n := 3; n <= 40; n++ {
		var rounds [][]TableGame
		order := all(n)
		for r := 0; r < 4; r++ {
			tables, err := SeatTables(order, 0)
			if err != nil {
				t.Fatal(err)
			}
			var rd []TableGame
			seated := map[int]bool{}
			for _, tb := range tables {
				g := TableGame{Players: tb}
				for _, p := range tb {
					if seated[p] {
						t.Fatalf("n=%d: player %d seated twice", n, p+1)
					}
					seated[p] = true
					g.Totals = append(g.Totals, rng.IntN(120)-10)
				}
				rd = append(rd, g)
			}
			if len(seated) != n {
				t.Fatalf("n=%d: %d seated", n, len(seated))
			}
			rounds = append(rounds, rd)
			st, err := TableStandings(n, rounds)
			if err != nil {
				t.Fatal(err)
			}
			// recompute: one point per player beaten, half per tie
			pts := make([]float64, n)
			tot := make([]int, n)
			for _, rd := range rounds {
				for _, g := range rd {
					for i, p := range g.Players {
						tot[p] += g.Totals[i]
						for j := range g.Players {
							if i != j && g.Totals[i] < g.Totals[j] {
								pts[p]++
							} else if i != j && g.Totals[i] == g.Totals[j] {
								pts[p] += 0.5
							}
						}
					}
				}
			}
			order = order[:0]
			for _, s := range st {
				if s.Points != pts[s.Player] || s.SkyjoTotal != tot[s.Player] {
					t.Fatalf("n=%d player %d: %v/%d, recomputed %v/%d", n, s.Player+1, s.Points, s.SkyjoTotal, pts[s.Player], tot[s.Player])
				}
				order = append(order, s.Player)
			}
		}
	}
}
