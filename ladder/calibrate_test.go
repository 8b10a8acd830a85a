package ladder

import (
	"testing"

	"github.com/tabula-games/tabula/rating"
)

// A round robin in which a beats b and c every time and b beats c: the
// held player stays where it is held, the others order themselves by
// their results around it, and the tallies count every game.
func TestRateMatchOrdersAroundTheAnchor(t *testing.T) {
	players := []string{"a", "b", "c"}
	var games []CalibrationGame
	for i := range 60 {
		switch i % 3 {
		case 0: // a beats b
			games = append(games, CalibrationGame{Index: i, Seats: []int{0, 1}, Winners: []int{0}})
		case 1: // c loses to a, from the first seat
			games = append(games, CalibrationGame{Index: i, Seats: []int{2, 0}, Winners: []int{1}})
		case 2: // b and c draw
			games = append(games, CalibrationGame{Index: i, Seats: []int{1, 2}})
		}
	}
	st, err := RateMatch(players, games, map[string]float64{"b": 1200})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := st[0], st[1], st[2]
	if !b.Fixed || b.Rating.R != 1200 || b.Rating.RD != AnchorDeviation {
		t.Errorf("the anchor moved: %+v", b)
	}
	if a.Rating.R <= 1400 || a.Fixed {
		t.Errorf("a won all its games and is rated %+v", a)
	}
	if c.Rating.R < 1000 || c.Rating.R > 1400 {
		t.Errorf("c drew the anchor and lost to a: rated %+v, want near 1200", c)
	}
	if a.Games != 40 || a.Wins != 40 || b.Draws != 20 || b.Losses != 20 || c.Draws != 20 || c.Losses != 20 {
		t.Errorf("tallies: a %+v, b %+v, c %+v", a, b, c)
	}
	if a.Rating.RD >= rating.DefaultDeviation/2 {
		t.Errorf("40 games left a's deviation at %.0f", a.Rating.RD)
	}
}

// Games are rated in the order of their index, not of the slice: a log
// lists games as they finish, which a match played several at a time
// does out of order.
func TestRateMatchRatesInIndexOrder(t *testing.T) {
	players := []string{"a", "b"}
	var games []CalibrationGame
	for i := range 20 {
		w := 0
		if i >= 10 {
			w = 1
		}
		games = append(games, CalibrationGame{Index: i, Seats: []int{0, 1}, Winners: []int{w}})
	}
	reversed := make([]CalibrationGame, len(games))
	for i, g := range games {
		reversed[len(games)-1-i] = g
	}
	x, _ := RateMatch(players, games, nil)
	y, _ := RateMatch(players, reversed, nil)
	if x[0].Rating != y[0].Rating || x[1].Rating != y[1].Rating {
		t.Errorf("the order of the slice changed the ratings: %+v and %+v", x, y)
	}
}

func TestRateMatchRefusesBadInput(t *testing.T) {
	if _, err := RateMatch([]string{"a", "b"}, nil, map[string]float64{"medium": 1500}); err == nil {
		t.Error("an anchor that is not a player was accepted")
	}
	if _, err := RateMatch([]string{"a", "b"}, []CalibrationGame{{Seats: []int{0, 2}}}, nil); err == nil {
		t.Error("a seat holding player 2 of 2 was accepted")
	}
	if _, err := RateMatch([]string{"a", "b"}, []CalibrationGame{{Seats: []int{0, 1}, Winners: []int{2}}}, nil); err == nil {
		t.Error("winner seat 2 of 2 was accepted")
	}
}

// TestStartAnchors: a new ladder holds easy, medium and hard at the ratings
// the calibration measured for its game (the lobby's numbers), and a game
// without a calibration at the defaults.
func TestStartAnchors(t *testing.T) {
	sgolte := StartAnchors("sgolte")
	want := []Anchor{{"easy", 1200, AnchorDeviation}, {"medium", 2196, AnchorDeviation}, {"hard", 2510, AnchorDeviation}}
	if len(sgolte) != len(want) {
		t.Fatalf("sgolte: %+v", sgolte)
	}
	for i := range want {
		if sgolte[i] != want[i] {
			t.Fatalf("sgolte: %+v, want %+v", sgolte, want)
		}
	}
	for game := range Calibrated {
		for _, a := range StartAnchors(game) {
			if a.Rating != Calibrated[game][a.Level].Rating || a.Deviation != AnchorDeviation {
				t.Errorf("%s %s at %v ± %v, calibrated %v", game, a.Level, a.Rating, a.Deviation, Calibrated[game][a.Level].Rating)
			}
		}
	}
	other := StartAnchors("tnim")
	for i, a := range DefaultAnchors {
		if other[i] != a {
			t.Fatalf("a game without a calibration: %+v, want the defaults %+v", other, DefaultAnchors)
		}
	}
	other[0].Rating = 1 // a copy: the defaults stay
	if DefaultAnchors[0].Rating != 1200 {
		t.Fatal("StartAnchors shares DefaultAnchors' array")
	}
}
