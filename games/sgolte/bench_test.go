package sgolte

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

func newState(tb testing.TB, settings ...string) *State {
	tb.Helper()
	opts, err := game.ParseOptions(Game, settings)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := Game.New(opts, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return s.(*State)
}

// BenchmarkPlayout measures the specialised random playout from the empty
// board (the acceptance target is 20,000 playouts/s on one core on size 5,
// with no allocation).
func BenchmarkPlayout(b *testing.B) {
	for _, size := range []string{"5", "6", "7"} {
		b.Run("size"+size, func(b *testing.B) {
			start := newState(b, "size="+size)
			var s State
			rng := game.NewRNG(7)
			plies := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s = *start
				plies += s.Playout(&rng)
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "playouts/s")
			b.ReportMetric(float64(plies)/sec, "plies/s")
		})
	}
}

// BenchmarkRandomPlayout measures the generic path (Legal + Play through the
// interface) that search falls back to.
func BenchmarkRandomPlayout(b *testing.B) {
	start := newState(b)
	s := start.Clone()
	rng := game.NewRNG(7)
	buf := make([]game.Move, 0, 512)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.CopyFrom(start)
		buf, _ = game.RandomPlayout(s, &rng, buf)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkLegal measures move generation over a spread of positions.
func BenchmarkLegal(b *testing.B) {
	var states []*State
	rng := game.NewRNG(3)
	for len(states) < 200 {
		s := newState(b)
		for !s.over() {
			states = append(states, s.Clone().(*State))
			ms := s.Legal(nil)
			s.Play(ms[rng.IntN(len(ms))])
		}
	}
	buf := make([]game.Move, 0, 512)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = states[i%len(states)].Legal(buf[:0])
	}
}
