package agent

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skyjo"
)

// BenchmarkSamplingSkyjo measures one decision of the hard Skyjo bot's
// search (one worker) in a 2-player position a few turns into a round,
// where the bot spends nearly all of an arena's time.
func BenchmarkSamplingSkyjo(b *testing.B) {
	s, err := skyjo.NewState(nil, 7)
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(3)
	var buf []game.Move
	for ply := 0; ply < 16 && !s.Outcome().Over(); ply++ {
		buf = s.Legal(buf[:0])
		s.Play(buf[rng.IntN(len(buf))])
	}
	a := NewSampling(MCTSConfig{Iters: SamplingLevels["hard"].Iters}, 1)
	b.ReportAllocs()
	iters := 0
	for i := 0; i < b.N; i++ {
		if _, err := a.Choose(context.Background(), seen(s)); err != nil {
			b.Fatal(err)
		}
		iters += a.Stats().Iterations
	}
	b.ReportMetric(float64(iters)/b.Elapsed().Seconds(), "iters/s")
}
