package tournament

import (
	"fmt"
	"slices"
	"sort"
)

// Table sizes of a Skyjo table tournament.
const (
	MinTable = 3
	MaxTable = 8
)

// TableSizes splits n players into tables of at most maxSize (3 to 8; 0
// means 8) players: the fewest tables that hold everyone, their sizes
// differing by at most one, the larger tables first. 9 players sit 5+4, 17
// sit 6+6+5. It is an error when no table can have 3 players or more (fewer
// than 3 players, or 4 or 5 players with tables of at most 3).
func TableSizes(n, maxSize int) ([]int, error) {
	if maxSize == 0 {
		maxSize = MaxTable
	}
	if maxSize < MinTable || maxSize > MaxTable {
		return nil, fmt.Errorf("%w: tables of at most %d players (want %d to %d)", ErrInput, maxSize, MinTable, MaxTable)
	}
	if n < MinTable {
		return nil, fmt.Errorf("%w: %d players cannot fill a table of %d", ErrInput, n, MinTable)
	}
	t := (n + maxSize - 1) / maxSize
	if n/t < MinTable {
		return nil, fmt.Errorf("%w: %d players do not split into tables of %d to %d", ErrInput, n, MinTable, maxSize)
	}
	sizes := make([]int, t)
	for i := range sizes {
		sizes[i] = n / t
		if i < n%t {
			sizes[i]++
		}
	}
	return sizes, nil
}

// SeatTables seats players, given in standings order (the leader first),
// at tables of TableSizes: the leaders together at table 1, and so on down.
// Within a table the order is the standings' (seat 0 the highest).
func SeatTables(order []int, maxSize int) ([][]int, error) {
	sizes, err := TableSizes(len(order), maxSize)
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(sizes))
	at := 0
	for i, s := range sizes {
		out[i] = append([]int(nil), order[at:at+s]...)
		at += s
	}
	return out, nil
}

// PlacementPoints are the points of each seat of one table game from the
// seats' Skyjo totals (lower is better): one point for every player at the
// table who finished behind, half a point for every one tied — as if each
// two players at the table had played a game. At a table of k the winner
// takes k-1, the last 0; players tied share their places' points.
func PlacementPoints(totals []int) []float64 {
	out := make([]float64, len(totals))
	for i, a := range totals {
		for j, b := range totals {
			switch {
			case i == j:
			case a < b:
				out[i]++
			case a == b:
				out[i] += 0.5
			}
		}
	}
	return out
}

// TableGame is one finished table: its players and their Skyjo totals at
// the end of the game, seat by seat.
type TableGame struct {
	Players []int
	Totals  []int
	// Points, when set, are the seats' placement points as recorded (a
	// game that ended by a resignation or on time has no Skyjo totals to
	// place by); nil means PlacementPoints(Totals).
	Points []float64
}

// TableStanding is one line of a table tournament's standings.
type TableStanding struct {
	Player int
	Rank   int // from 1, shared by players equal on points and total
	Points float64
	// SkyjoTotal is the sum of the player's Skyjo totals over the games:
	// the tie-break, lower first.
	SkyjoTotal int
	Games      int
	Wins       int // games finished first (alone or tied): the most points at the table
}

// TableStandings ranks n players after the rounds of table games by their
// placement points, then by their total of Skyjo points (lower first).
func TableStandings(n int, rounds [][]TableGame) ([]TableStanding, error) {
	out := make([]TableStanding, n)
	for p := range out {
		out[p].Player = p
	}
	for r, rd := range rounds {
		seen := map[int]bool{}
		for _, g := range rd {
			if len(g.Players) != len(g.Totals) || len(g.Players) < 2 || (g.Points != nil && len(g.Points) != len(g.Players)) {
				return nil, fmt.Errorf("%w: round %d: a table of %d players with %d totals", ErrInput, r+1, len(g.Players), len(g.Totals))
			}
			pts := g.Points
			if pts == nil {
				pts = PlacementPoints(g.Totals)
			}
			for i, p := range g.Players {
				if p < 0 || p >= n || seen[p] {
					return nil, fmt.Errorf("%w: round %d seats player %d twice or out of range", ErrInput, r+1, p+1)
				}
				seen[p] = true
				s := &out[p]
				s.Points += pts[i]
				s.SkyjoTotal += g.Totals[i]
				s.Games++
				if pts[i] == slices.Max(pts) {
					s.Wins++
				}
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return tableBetter(&out[a], &out[b]) })
	for i := range out {
		if i > 0 && !tableBetter(&out[i-1], &out[i]) {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out, nil
}

func tableBetter(a, b *TableStanding) bool {
	if a.Points != b.Points {
		return a.Points > b.Points
	}
	return a.SkyjoTotal < b.SkyjoTotal
}
