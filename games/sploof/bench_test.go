package sploof

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

var sinkPlies int

// BenchmarkPlayout is the acceptance figure: uniformly random playouts from
// the start position on the specialised path.
func BenchmarkPlayout(b *testing.B) {
	st, _ := Game{}.New(nil, 1)
	start := st.(*State)
	var s State
	rng := game.NewRNG(42)
	plies := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s = *start
		plies += s.Playout(&rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
	sinkPlies = plies
}

// BenchmarkRandomPlayout is the generic path through the game contract.
func BenchmarkRandomPlayout(b *testing.B) {
	start, _ := Game{}.New(nil, 1)
	s := start.Clone()
	rng := game.NewRNG(42)
	buf := make([]game.Move, 0, 64)
	plies := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.CopyFrom(start)
		var n int
		buf, n = game.RandomPlayout(s, &rng, buf)
		plies += n
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
	sinkPlies = plies
}
