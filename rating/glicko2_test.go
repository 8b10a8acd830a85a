package rating

import (
	"math"
	"slices"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestPaperExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 player and loses
// to 1550/100 and 1700/300 players, with τ = 0.5.
func TestPaperExample(t *testing.T) {
	p := Rating{1500, 200, 0.06}
	got := Update(p, []Result{
		{Rating{1400, 30, 0.06}, 1},
		{Rating{1550, 100, 0.06}, 0},
		{Rating{1700, 300, 0.06}, 0},
	}, 0.5)
	if !near(got.R, 1464.06, 0.01) || !near(got.RD, 151.52, 0.01) || !near(got.Vol, 0.05999, 0.00001) {
		t.Fatalf("got %+v, want 1464.06 / 151.52 / 0.05999", got)
	}
}

func TestNoGamesWidensDeviation(t *testing.T) {
	p := Rating{1500, 200, 0.06}
	got := Update(p, nil, Tau)
	// φ* = sqrt(φ² + σ²) on the Glicko-2 scale.
	want := scale * math.Sqrt(math.Pow(200/scale, 2)+0.06*0.06)
	if got.R != 1500 || !near(got.RD, want, 1e-9) {
		t.Fatalf("got %+v, want RD %v", got, want)
	}
	if Update(Default(), nil, Tau).RD != DefaultDeviation {
		t.Fatal("deviation must be capped at its start value")
	}
}

// TestTwoPlayerSymmetry: between two new players the winner gains exactly
// what the loser loses, and a draw changes no rating.
func TestTwoPlayerSymmetry(t *testing.T) {
	a, b := Default(), Default()
	out := UpdateGame([]Rating{a, b}, []int{0, 1}, Tau)
	if !(out[0].R > 1500) || !near(out[0].R-1500, 1500-out[1].R, 1e-9) {
		t.Fatalf("win: %+v", out)
	}
	out = UpdateGame([]Rating{a, b}, []int{0, 0}, Tau)
	if !near(out[0].R, 1500, 1e-9) || !near(out[1].R, 1500, 1e-9) || !(out[0].RD < 350) {
		t.Fatalf("draw: %+v", out)
	}
}

// TestMultiplayerPairwise: a 4-player game is, for each player, three games
// in one period, one against each other player.
func TestMultiplayerPairwise(t *testing.T) {
	ps := []Rating{{1500, 350, 0.06}, {1600, 200, 0.06}, {1400, 100, 0.06}, {1550, 80, 0.06}}
	places := []int{2, 0, 2, 1}
	out := UpdateGame(ps, places, Tau)
	// Brute force: build each player's result list by hand.
	want0 := Update(ps[0], []Result{{ps[1], 0}, {ps[2], 0.5}, {ps[3], 0}}, Tau)
	want1 := Update(ps[1], []Result{{ps[0], 1}, {ps[2], 1}, {ps[3], 1}}, Tau)
	if out[0] != want0 || out[1] != want1 {
		t.Fatalf("got %+v %+v, want %+v %+v", out[0], out[1], want0, want1)
	}
	if !(out[1].R > ps[1].R) || !(out[0].R < ps[0].R) {
		t.Fatalf("winner must gain, last must lose: %+v", out)
	}
}

func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		name    string
		winners []bool
		scores  []int
		want    []int
	}{
		{"two-player win", []bool{false, true}, nil, []int{1, 0}},
		{"draw", []bool{false, false, false}, nil, []int{0, 0, 0}},
		{"skyjo lower is better", []bool{false, true, false, false}, []int{120, 40, 88, 120}, []int{2, 0, 1, 2}},
		{"shared win", []bool{true, false, true}, []int{30, 50, 30}, []int{0, 1, 0}},
		{"higher is better", []bool{true, false, false}, []int{20, 5, 9}, []int{0, 2, 1}},
		{"no direction", []bool{false, true, false}, []int{10, 10, 10}, []int{1, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Places(len(tc.winners), tc.winners, tc.scores); !slices.Equal(got, tc.want) {
				t.Fatalf("Places = %v, want %v", got, tc.want)
			}
		})
	}
}
