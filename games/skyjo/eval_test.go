package skyjo

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestPolicyRoundModel checks the constants of Evaluate's match model
// against greedy self-play: mean and spread of a player's round score
// (doubling included). SKYJO_STAT_GAMES sets the number of games.
func TestPolicyRoundModel(t *testing.T) {
	games := 300
	if v, err := strconv.Atoi(os.Getenv("SKYJO_STAT_GAMES")); err == nil {
		games = v
	}
	for _, np := range []int{2, 4} {
		var sum, sq float64
		n := 0
		for seed := uint64(1); seed <= uint64(games); seed++ {
			s, _ := NewState(game.Options{"players": fmt.Sprint(np)}, seed)
			rng := game.NewRNG(seed)
			prev, r := s.totals, s.round
			for s.phase != phaseOver {
				s.Play(s.PolicyMove(&rng))
				if s.round != r || s.phase == phaseOver {
					for p := 0; p < np; p++ {
						x := float64(s.totals[p] - prev[p])
						sum += x
						sq += x * x
						n++
					}
					prev, r = s.totals, s.round
				}
			}
		}
		mean := sum / float64(n)
		sd := math.Sqrt(sq/float64(n) - mean*mean)
		t.Logf("%d players: %d round scores, mean %.2f, sd %.2f", np, n, mean, sd)
		if math.Abs(mean-roundMean) > 3 || math.Abs(sd-roundSD) > 3 {
			t.Errorf("%d players: round score mean %.2f sd %.2f; the model assumes %.1f and %.1f", np, mean, sd, roundMean, roundSD)
		}
	}
}

func TestEvaluateFavoursTheLowerTotal(t *testing.T) {
	s, _ := NewState(game.Options{"players": "2"}, 1)
	s.totals[0], s.totals[1] = 40, 60
	a, b := s.Evaluate(0), s.Evaluate(1)
	if a <= 0 || math.Abs(a+b) > 1e-9 {
		t.Errorf("totals 40 vs 60: Evaluate = %v, %v; want seat 0 ahead and a zero sum", a, b)
	}
	// The same 20-point lead is worth more when the game is nearly over.
	s.totals[0], s.totals[1] = 75, 95
	if late := s.Evaluate(0); late <= a {
		t.Errorf("a 20-point lead at 75/95 is worth %v, not more than at 40/60 (%v)", late, a)
	}
	s.totals[0], s.totals[1] = 50, 50
	if v := s.Evaluate(0); math.Abs(v) > 1e-9 {
		t.Errorf("equal totals: %v, want 0", v)
	}
}
