package skjuub

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

func BenchmarkPlayout(b *testing.B) {
	start, _ := Game.New(nil, 1)
	s := start.Clone().(*State)
	rng := game.NewRNG(1)
	b.ReportAllocs()
	plies := 0
	for i := 0; i < b.N; i++ {
		s.CopyFrom(start)
		plies += s.Playout(&rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
}

func BenchmarkRandomPlayout(b *testing.B) {
	start, _ := Game.New(nil, 1)
	s := start.Clone()
	rng := game.NewRNG(1)
	buf := make([]game.Move, 0, maxMoves)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s.CopyFrom(start)
		buf, _ = game.RandomPlayout(s, &rng, buf)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}
