package skjuub

import (
	"math"
	"testing"

	"github.com/tabula-games/tabula/game/gametest"
)

// The contact-seeking heuristic is zero-sum, inside Evaluate's bounds,
// and finished games are worth what Evaluate says.
func TestEvaluateContactZeroSum(t *testing.T) {
	for _, gs := range gametest.RandomStates(t, Game, nil, 11, 400) {
		s := gs.(*State)
		for searcher := 0; searcher < 2; searcher++ {
			a, b := s.EvaluateContact(0, searcher), s.EvaluateContact(1, searcher)
			if a != -b {
				t.Fatalf("searcher %d: seat 0 %v, seat 1 %v: not each other's negatives", searcher, a, b)
			}
			if a < -1 || a > 1 || !s.Outcome().Over() && (a <= -0.95 || a >= 0.95) {
				t.Fatalf("EvaluateContact = %v", a)
			}
			if s.Outcome().Over() && a != s.Evaluate(0) {
				t.Fatalf("a finished game: EvaluateContact %v, Evaluate %v", a, s.Evaluate(0))
			}
		}
	}
}

// Contact counts the smaller side's mobile pieces that the other side has
// a mobile piece on the axis of (north–south or east–west): pieces on
// different axes can never capture each other.
func TestContactIsTheSharedAxes(t *testing.T) {
	for _, c := range []struct {
		pieces  string
		mobile  [2]int
		contact float64
	}{
		{"a3:1N c1:1S a6:2W", [2]int{2, 1}, 0},             // north–south against east–west
		{"a3:1N f1:1E a6:2W", [2]int{2, 1}, 1},             // seat 1's one piece meets f1's axis
		{"a3:1N f1:1E a6:2W d6:2S", [2]int{2, 2}, 1},       // an axis each, both shared
		{"a3:1N c1:1S a6:2W d6:2N", [2]int{2, 2}, 0.5},     // of the two, one can be met
		{"a3:1N c1:1S e1:1N a6:2W d6:2E", [2]int{3, 2}, 0}, // all on different axes
	} {
		s := setup{pieces: c.pieces}.load(t)
		mobile, _, axis := s.axisMobility()
		if mobile != c.mobile {
			t.Fatalf("%s: mobile pieces %v, want %v", c.pieces, mobile, c.mobile)
		}
		if got := contact(mobile, axis); got != c.contact {
			t.Errorf("%s: contact %v, want %v", c.pieces, got, c.contact)
		}
	}
	if got := contact([2]int{3, 0}, [2][2]int{{3, 0}, {0, 0}}); got != 0 {
		t.Errorf("a side without mobile pieces: contact %v, want 0", got)
	}
}

// Against Evaluate's sum (0.6 a mobile piece, 0.04 a move), the searcher's
// sum adds 0.3·contact, whoever is ahead. Read through the squash both
// share (0.95·tanh(x/3)).
func TestContactAddsToTheSum(t *testing.T) {
	sum := func(v float64) float64 { return 3 * math.Atanh(v/0.95) }
	for _, c := range []struct {
		pieces string
		diff   float64 // the searcher's sum less Evaluate's, for either searcher
	}{
		{"a3:1N c1:1S a6:2W", 0},          // seat 0 one up, no contact
		{"a3:1N f1:1E a6:2W", 0.3},        // one up, full contact
		{"a3:1N c1:1S a6:2W d6:2N", 0.15}, // even, half contact
	} {
		s := setup{pieces: c.pieces}.load(t)
		for searcher := 0; searcher < 2; searcher++ {
			got := sum(s.EvaluateContact(searcher, searcher)) - sum(s.Evaluate(searcher))
			if math.Abs(got-c.diff) > 1e-9 {
				t.Errorf("%s, searcher %d: sum %+.4f against Evaluate's, want %+.2f", c.pieces, searcher, got, c.diff)
			}
		}
	}
}
