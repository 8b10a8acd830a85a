package skyjo

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

// BenchmarkRandomGame2p plays whole 2-player games to 100 with uniformly
// random decisions on one state reused across games (a new seed each game).
func BenchmarkRandomGame2p(b *testing.B) {
	s, err := NewState(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(42)
	plies := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset(uint64(i))
		plies += s.Playout(&rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}

// BenchmarkRandomGame2pGeneric is the same through the contract: Legal and
// Play behind the interface, as game.RandomPlayout does.
func BenchmarkRandomGame2pGeneric(b *testing.B) {
	s, err := NewState(nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRNG(42)
	buf := make([]game.Move, 0, 64)
	var gs game.State = s
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Reset(uint64(i))
		buf, _ = game.RandomPlayout(gs, &rng, buf)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
