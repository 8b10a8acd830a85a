package game_test

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

func TestRewards(t *testing.T) {
	for _, tc := range []struct {
		name    string
		o       game.Outcome
		players int
		want    []float64 // per seat
	}{
		{"ongoing", game.Outcome{}, 2, []float64{0, 0}},
		{"seat 1 wins", game.WinOutcome(1), 2, []float64{0, 1}},
		{"seat 0 wins of 4", game.WinOutcome(0), 4, []float64{1, 0, 0, 0}},
		{"two of three share", game.WinOutcome(0, 2), 3, []float64{0.5, 0, 0.5}},
		{"three of four share", game.WinOutcome(1, 2, 3), 4, []float64{0, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"all eight share", game.WinOutcome(0, 1, 2, 3, 4, 5, 6, 7), 8, []float64{0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125}},
		{"two-seat draw", game.Outcome{Status: game.Drawn}, 2, []float64{0.5, 0.5}},
		{"three-seat draw", game.Outcome{Status: game.Drawn}, 3, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seat, want := range tc.want {
				if got := tc.o.Reward(seat, tc.players); got != want {
					t.Errorf("Reward(%d, %d) = %v, want %v", seat, tc.players, got, want)
				}
			}
		})
	}
}

func TestOutcomeBasics(t *testing.T) {
	o := game.WinOutcome(0, 2)
	if o.Status != game.Won || o.Winners != 0b101 {
		t.Errorf("WinOutcome(0, 2) = %+v, want Won with winners 0b101", o)
	}
	for seat, want := range []bool{true, false, true, false} {
		if o.IsWinner(seat) != want {
			t.Errorf("IsWinner(%d) = %v", seat, !want)
		}
	}
	for _, tc := range []struct {
		o    game.Outcome
		over bool
		text string
	}{
		{game.Outcome{}, false, "ongoing"},
		{game.WinOutcome(1), true, "won"},
		{game.Outcome{Status: game.Drawn}, true, "drawn"},
		{game.Outcome{Status: 7}, true, "Status(7)"},
	} {
		if tc.o.Over() != tc.over || tc.o.Status.String() != tc.text {
			t.Errorf("%+v: Over %v, String %q; want %v, %q", tc.o, tc.o.Over(), tc.o.Status, tc.over, tc.text)
		}
	}
}
