package sploof

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

// Evaluate stays in [-1, 1], is ±1 exactly on finished games, and is
// zero-sum between the seats.
func TestEvaluateRange(t *testing.T) {
	for _, s := range randomStates(t, 3000) {
		for seat := 0; seat < 2; seat++ {
			v := s.Evaluate(seat)
			if v < -1 || v > 1 {
				t.Fatalf("Evaluate(%d) = %v", seat, v)
			}
			if o := s.Outcome(); o.Status == game.Won && v != map[bool]float64{true: 1, false: -1}[o.IsWinner(seat)] {
				t.Fatalf("finished game: Evaluate(%d) = %v, outcome %+v", seat, v, o)
			}
			if !s.Outcome().Over() && (v == 1 || v == -1) {
				t.Fatalf("unfinished game: Evaluate(%d) = %v", seat, v)
			}
		}
		if a, b := s.Evaluate(0), s.Evaluate(1); a != -b {
			t.Fatalf("Evaluate(0) = %v, Evaluate(1) = %v", a, b)
		}
	}
}

// A side to move that can complete a line now, by placing or by a drop,
// is valued as winning.
func TestEvaluateSeesWinsNow(t *testing.T) {
	// White to move places 1g3 to fill the row 1a3…1g3.
	byPlacement := position(t, [4]string{"RRRR/R..R/WWW./RRRR", ".../.../...", "../..", "."}, "white", 2, 2)
	// Black to move removes 1g1: the ball on 2f2 drops in and completes
	// Black's bottom row (White's row 3 is opened as well: both lines, the
	// mover wins).
	byDrop := position(t, bothLines, "black", 0, 1)
	for name, tc := range map[string]struct {
		s    *State
		seat int
	}{"placement": {byPlacement, White}, "drop": {byDrop, Black}} {
		if v := tc.s.Evaluate(tc.seat); v < 0.9 {
			t.Errorf("%s: Evaluate for the side to move = %v, want ≥ 0.9", name, v)
		}
		if v := tc.s.Evaluate(1 - tc.seat); v > -0.9 {
			t.Errorf("%s: Evaluate for the other side = %v, want ≤ -0.9", name, v)
		}
	}
	// With no ball in stock White cannot use 1g3, so the position is not
	// lost for Black.
	noStock := position(t, [4]string{"RRRR/R..R/WWW./RRRR", ".../.../...", "../..", "."}, "white", 0, 2, "supply", "unlimited")
	if v := noStock.Evaluate(White); v >= 0.9 {
		t.Errorf("no stock: Evaluate = %v, want < 0.9", v)
	}
}

// A double threat by the side that just moved outweighs a single one.
func TestEvaluateDoubleThreat(t *testing.T) {
	// White (just moved) owns 1a3 1c3 1e3 and 1a1 1a5: two holes, 1g3 and
	// 1a7, each complete a line; Black can fill only one.
	double := position(t, [4]string{".RRR/WB.R/WWW./WBRR", ".../.../...", "../..", "."}, "black", 2, 2, "supply", "unlimited")
	single := position(t, [4]string{"RRRR/RB.R/WWW./RBRR", ".../.../...", "../..", "."}, "black", 2, 2, "supply", "unlimited")
	d, s := double.Evaluate(White), single.Evaluate(White)
	if !(d > s && d > 0.5 && s > 0) {
		t.Errorf("double threat %v, single threat %v", d, s)
	}
}
