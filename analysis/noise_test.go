package analysis

import (
	"context"
	"fmt"
	"os"
	"testing"

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
