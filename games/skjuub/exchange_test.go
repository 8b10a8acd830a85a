package skjuub

import (
	"testing"

	"github.com/tabula-games/tabula/game/gametest"
)

// The exchange-seeking heuristic is still zero-sum, and finished games
// are worth what Evaluate says.
func TestEvaluateExchangeZeroSum(t *testing.T) {
	for _, gs := range gametest.RandomStates(t, Game, nil, 7, 400) {
		s := gs.(*State)
		for searcher := 0; searcher < 2; searcher++ {
			a, b := s.EvaluateExchange(0, searcher), s.EvaluateExchange(1, searcher)
			if a != -b {
				t.Fatalf("searcher %d: seat 0 %v, seat 1 %v: not each other's negatives", searcher, a, b)
			}
			if a < -1 || a > 1 || !s.Outcome().Over() && (a <= -0.95 || a >= 0.95) {
				t.Fatalf("EvaluateExchange = %v", a)
			}
			if s.Outcome().Over() && a != s.Evaluate(0) {
				t.Fatalf("a finished game: EvaluateExchange %v, Evaluate %v", a, s.Evaluate(0))
			}
		}
	}
}

// An even exchange (fact 7's capture: the capturer sacrificed, the
// captured piece inactive, one mobile piece less on each side) gains for
// the searching seat, whichever side it is, more than Evaluate says it
// does; Evaluate, greedy's yardstick, sees only the moves that changed.
func TestExchangeGainsForTheSearcher(t *testing.T) {
	before := setup{pieces: "a3:1N d4:2N f1:1E a6:2W"}.load(t)
	after := setup{pieces: "a3:1N d4:2N f1:1E a6:2W"}.load(t)
	mustPlay(t, after, "a3-d3 pass")
	if m, _ := before.mobility(); m != [2]int{2, 2} {
		t.Fatalf("before: mobile pieces %v, want 2 and 2", m)
	}
	if m, _ := after.mobility(); m != [2]int{1, 1} {
		t.Fatalf("after: mobile pieces %v, want 1 and 1", m)
	}
	for searcher := 0; searcher < 2; searcher++ {
		ex := after.EvaluateExchange(searcher, searcher) - before.EvaluateExchange(searcher, searcher)
		ev := after.Evaluate(searcher) - before.Evaluate(searcher)
		if ex < ev+0.05 {
			t.Errorf("searcher %d: the exchange is worth %+.3f to it, %+.3f to Evaluate: want clearly more", searcher, ex, ev)
		}
	}
}

// Ahead is more mobile pieces than the other side: neither is ahead at
// two against two, nor after the even exchange, and with one of seat 1's
// mobile pieces gone seat 0 is and seat 1 is not.
func TestAheadIsMoreMobilePieces(t *testing.T) {
	even := setup{pieces: "a3:1N d4:2N f1:1E a6:2W"}.load(t)
	exchanged := setup{pieces: "a3:1N d4:2N f1:1E a6:2W"}.load(t)
	mustPlay(t, exchanged, "a3-d3 pass")
	up := setup{pieces: "a3:1N f1:1E a6:2W"}.load(t)
	for _, c := range []struct {
		name   string
		s      *State
		mobile [2]int
		ahead  [2]bool
	}{
		{"two against two", even, [2]int{2, 2}, [2]bool{false, false}},
		{"after the exchange", exchanged, [2]int{1, 1}, [2]bool{false, false}},
		{"two against one", up, [2]int{2, 1}, [2]bool{true, false}},
	} {
		if m, _ := c.s.mobility(); m != c.mobile {
			t.Fatalf("%s: mobile pieces %v, want %v", c.name, m, c.mobile)
		}
		for seat := 0; seat < 2; seat++ {
			if got := c.s.Ahead(seat); got != c.ahead[seat] {
				t.Errorf("%s: Ahead(%d) = %v, want %v", c.name, seat, got, c.ahead[seat])
			}
		}
	}
}
