package skjuub

import (
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

// A side is stuck when nothing it can do on its own changes the game's
// progress: no pool to place from, and no slide or tumble that ends beside
// a piece facing the mover's new way (a sacrifice, or a capture).
func TestStuck(t *testing.T) {
	for _, c := range []struct {
		name   string
		pieces string
		pool   []int
		stuck  [2]bool
	}{
		{"a lone piece, nothing to meet", "a1:1N f6:2E", []int{0, 0}, [2]bool{true, true}},
		{"a pool to place from", "a1:1N f6:2E", []int{1, 0}, [2]bool{false, true}},
		// a1 slides to a3 or a4, beside b3 or b4 (both facing north).
		{"a slide beside one's own pair", "a1:1N b3:1N b4:1N f6:2E", []int{0, 0}, [2]bool{false, true}},
		// The pair is out of a1's reach: its slides run along column a and row 1.
		{"the pair out of reach", "a1:1N e4:1N e5:1N f1:2E", []int{0, 0}, [2]bool{true, true}},
		// a1 tumbles forward onto a2 facing south, beside b2 facing south: a capture.
		{"a tumble that captures", "a1:1N b2:2S", []int{0, 0}, [2]bool{false, false}},
	} {
		s := setup{pieces: c.pieces}.load(t)
		// A position text must hold eleven pieces a side; Stuck reads the
		// pools as they are, so these positions empty them by hand.
		s.pool = [2]int8{int8(c.pool[0]), int8(c.pool[1])}
		for seat := 0; seat < 2; seat++ {
			if got := s.Stuck(seat); got != c.stuck[seat] {
				t.Errorf("%s (%s), seat %d: Stuck %v, want %v", c.name, c.pieces, seat, got, c.stuck[seat])
			}
		}
	}
	// In the middle of a bonus the pick-up is progress.
	s := setup{pieces: "a1:1N c3:1N c4:1N f6:2E", phase: "bonus", earnedBy: "c2-c3"}.load(t)
	s.pool = [2]int8{}
	if s.Stuck(0) {
		t.Error("seat 0 in its bonus: Stuck, want not (it may pick a piece up)")
	}
}

// Stuck agrees with the rules: in random positions, a side to move that is
// stuck has no legal move that changes the game's progress (game.Progress),
// and one that is not has such a move — unless the no-backtracking rule
// forbids it, which Stuck does not look at.
func TestStuckMeansNoProgress(t *testing.T) {
	var buf []game.Move
	stuck, free := 0, 0
	for _, gs := range gametest.RandomStates(t, Game, nil, 5, 6000) {
		s := gs.(*State)
		if s.Outcome().Over() {
			continue
		}
		me := s.ToMove()
		sig, _ := s.Progress()
		progress := false
		for _, m := range s.Legal(buf[:0]) {
			c := s.Clone().(*State)
			c.Play(m)
			if got, _ := c.Progress(); got != sig {
				progress = true
				break
			}
		}
		switch st := s.Stuck(me); {
		case st && progress:
			t.Fatalf("%s: Stuck, but a legal move makes progress", position(t, s))
		case !st && !progress && s.ban(s.masks()) == 0:
			t.Fatalf("%s: not Stuck, but no legal move makes progress", position(t, s))
		case st:
			stuck++
		default:
			free++
		}
	}
	if stuck < 20 || free < 20 {
		t.Fatalf("%d stuck and %d free positions: too few of one to test", stuck, free)
	}
}

func position(t *testing.T, s *State) string {
	t.Helper()
	b, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
