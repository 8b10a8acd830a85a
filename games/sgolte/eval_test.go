package sgolte

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

// greedyMove plays the one-ply greedy agent: the move whose result
// Evaluate likes best for the mover, ties broken at random.
func greedyMove(s *State, rng *game.RNG) game.Move {
	seat := s.ToMove()
	best, bestV, ties := game.Move(0), -2.0, 0
	for _, m := range s.Legal(nil) {
		c := *s
		c.Play(m)
		v := c.Evaluate(seat)
		switch {
		case v > bestV:
			best, bestV, ties = m, v, 1
		case v == bestV:
			ties++
			if rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// TestEvaluatorBeatsRandom: the greedy agent on Evaluate beats uniform
// random play clearly, from either seat.
func TestEvaluatorBeatsRandom(t *testing.T) {
	for _, c := range []struct {
		size  string
		games int
	}{{"5", 40}, {"7", 10}} {
		games := c.games
		if testing.Short() {
			games = 6
		}
		rng := game.NewRNG(17)
		wins := 0
		for i := 0; i < games; i++ {
			greedySeat := i % 2
			s := newState(t, "size="+c.size)
			for !s.Outcome().Over() {
				if s.ToMove() == greedySeat {
					s.Play(greedyMove(s, &rng))
				} else {
					ms := s.Legal(nil)
					s.Play(ms[rng.IntN(len(ms))])
				}
			}
			if s.Outcome().IsWinner(greedySeat) {
				wins++
			}
		}
		if wins*10 < games*9 {
			t.Errorf("size %s: greedy won %d of %d games against random, want at least 90%%", c.size, wins, games)
		}
	}
}

// TestEvaluateRange: values lie in [-1, 1], are exact at the end, and the
// two seats see opposite values (the heuristic is symmetric).
func TestEvaluateRange(t *testing.T) {
	for _, st := range randomStatesAllSizes(t) {
		s := st
		a, b := s.Evaluate(0), s.Evaluate(1)
		if a < -1 || a > 1 || a != -b {
			t.Fatalf("Evaluate = %v, %v in %s", a, b, mustJSON(t, s))
		}
		if s.over() {
			o := s.Outcome()
			want := map[bool]float64{true: 1, false: -1}[o.IsWinner(0)]
			if o.Status == game.Drawn {
				want = 0
			}
			if a != want {
				t.Fatalf("finished game: Evaluate(0) = %v, want %v", a, want)
			}
		}
	}
	// More stones and more merge cells are better.
	base := posOf(t, 5, "a1 a2", "e1 e2")
	if v := base.Evaluate(0); v != 0 {
		t.Errorf("even material and merge cells: %v, want 0", v)
	}
	more := posOf(t, 5, "a1 a2 g1", "e1 e2")
	merge := posOf(t, 5, "a1 a3", "e1 e2")
	if !(more.Evaluate(0) > 0 && merge.Evaluate(0) > 0 && more.Evaluate(0) > merge.Evaluate(0)) {
		t.Errorf("Evaluate: one stone more %v, one merge cell more %v; want both positive, the stone worth more",
			more.Evaluate(0), merge.Evaluate(0))
	}
}

func randomStatesAllSizes(t *testing.T) []*State {
	var out []*State
	for _, size := range []string{"5", "6", "7"} {
		rng := game.NewRNG(4)
		for i := 0; i < 5; i++ {
			s := newState(t, "size="+size)
			for {
				out = append(out, s.Clone().(*State))
				ms := s.Legal(nil)
				if len(ms) == 0 {
					break
				}
				s.Play(ms[rng.IntN(len(ms))])
			}
		}
	}
	return out
}
