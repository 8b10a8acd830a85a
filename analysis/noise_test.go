package analysis

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// TestMeasureReviewNoise measures how far apart searches of one position
// at the review's budget land (4 seeds, 6 positions of random games per
// game): the noise the marking thresholds must stand clear of. It is a
// measurement, run on request: NOISE=1 go test -run TestMeasureReviewNoise
// -v ./analysis (the result is in docs/ai.md).
func TestMeasureReviewNoise(t *testing.T) {
	if os.Getenv("NOISE") == "" {
		t.Skip("a measurement: set NOISE=1")
	}
	for _, name := range []string{"sgolte", "sploof", "skjuub"} {
		g := lookup(t, name)
		worst, sum, k := 0.0, 0.0, 0
		for pos := uint64(0); pos < 6; pos++ {
			s, _ := g.New(nil, pos)
			rng := game.NewRNG(pos)
			for i := 0; i < 6+int(pos)*4 && !s.Outcome().Over(); i++ {
				ms := s.Legal(nil)
				s.Play(ms[rng.IntN(len(ms))])
			}
			if s.Outcome().Over() {
				continue
			}
			lo, hi := 2.0, -1.0
			for seed := uint64(1); seed <= 4; seed++ {
				r, _ := Analyse(context.Background(), s, Options{Iters: DefaultReviewIters, Search: Search{Seed: seed * 77, SolverNodes: -1}}, nil)
				lo, hi = min(lo, r.Win), max(hi, r.Win)
			}
			worst = max(worst, hi-lo)
			sum += hi - lo
			k++
		}
		fmt.Printf("%s: spread of 4 searches, mean %.3f worst %.3f over %d positions\n", name, sum/float64(k), worst, k)
	}
}

// TestMeasureSkyjoReviewNoise reviews the same Skyjo games twice with
// different seeds (the review's own noise) and prints what the thresholds
// of a hidden-information review rest on: each position's measured noise
// (the spread of one run's estimate of a difference between two choices),
// how far the two reviews' losses of one decision lie apart, and how many
// decisions each review marks, against the single-run judgement the review
// used before (best and played read in one run). The games are played by
// the policy with one move in six random, so that there are real mistakes
// to find. A measurement, run on request: NOISE=1 go test -run
// TestMeasureSkyjoReviewNoise -v ./analysis (the result is in docs/ai.md).
func TestMeasureSkyjoReviewNoise(t *testing.T) {
	if os.Getenv("NOISE") == "" {
		t.Skip("a measurement: set NOISE=1")
	}
	var noises, gaps []float64
	marks, agree, decisions, singleMarks, flipMarks := [2]int{}, 0, 0, 0, 0
	for g := uint64(0); g < 6; g++ {
		s, _ := lookup(t, "skyjo").New(nil, 100+g)
		rng := game.NewRNG(g)
		for ply := 0; ply < 120 && !s.Outcome().Over(); ply++ {
			legal := s.Legal(nil)
			m := s.(game.Policy).PolicyMove(&rng)
			if rng.IntN(6) == 0 {
				m = legal[rng.IntN(len(legal))]
			}
			if len(legal) > 1 {
				decisions++
				var js [2]Judgement
				for r := 0; r < 2; r++ {
					j, noise, err := judgeHidden(context.Background(), s, m, DefaultReviewWorlds, uint64(1+r*1000+ply))
					if err != nil {
						t.Fatal(err)
					}
					js[r] = j
					noises = append(noises, noise)
					if j.Mark != Good {
						marks[r]++
					}
				}
				gaps = append(gaps, math.Abs(js[0].Loss-js[1].Loss))
				if (js[0].Mark == Good) == (js[1].Mark == Good) {
					agree++
				}
				if single := singleRunLoss(t, s, m, uint64(1+ply)); markFor(single) != Good {
					singleMarks++
					if strings.HasPrefix(s.FormatMove(m), "flip") && ply < 4 {
						flipMarks++
					}
				}
			}
			s.Play(m)
		}
	}
	sort.Float64s(noises)
	sort.Float64s(gaps)
	q := func(x []float64, f float64) float64 { return x[int(f*float64(len(x)-1))] }
	fmt.Printf("%d decisions; noise per position: median %.4f, 10%% %.4f, 90%% %.4f, max %.4f\n", decisions, q(noises, 0.5), q(noises, 0.1), q(noises, 0.9), q(noises, 1))
	fmt.Printf("two reviews' losses of a decision apart: median %.4f, 95%% %.4f, 99%% %.4f, max %.4f\n", q(gaps, 0.5), q(gaps, 0.95), q(gaps, 0.99), q(gaps, 1))
	fmt.Printf("marked: review 1 %d, review 2 %d, agreeing on %d of %d decisions; single run (the old judgement) %d, of them opening flips %d\n", marks[0], marks[1], agree, decisions, singleMarks, flipMarks)
}

// singleRunLoss is the judgement the review made before: one run, the best
// and the played move read in it.
func singleRunLoss(t *testing.T, s game.State, m game.Move, seed uint64) float64 {
	obs, err := game.Observe(s, s.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	vals, err := agent.SampleValues(context.Background(), obs, DefaultReviewWorlds, seed)
	if err != nil {
		t.Fatal(err)
	}
	best, played := 0.0, 0.0
	for _, v := range vals {
		best = math.Max(best, v.Value)
		if v.Move == m {
			played = v.Value
		}
	}
	return best - played
}
