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

// BenchmarkLegal generates the moves of a spread of positions.
func BenchmarkLegal(b *testing.B) {
	states := benchStates(b)
	buf := make([]game.Move, 0, 64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = states[i%len(states)].Legal(buf[:0])
	}
}

// BenchmarkPlay is copy-make: copy a position, play one of its moves.
func BenchmarkPlay(b *testing.B) {
	states := benchStates(b)
	moves := make([][]game.Move, len(states))
	for i, s := range states {
		moves[i] = s.Legal(nil)
	}
	var scratch State
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(states)
		if len(moves[j]) == 0 {
			continue
		}
		scratch = *states[j]
		scratch.Play(moves[j][i%len(moves[j])])
	}
}

// BenchmarkPerft4 is perft(4) from the start through the game contract.
func BenchmarkPerft4(b *testing.B) {
	s, _ := Game{}.New(game.Options{"first": "white"}, 0)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		game.Perft(s, 4)
	}
	b.ReportMetric(float64(63704*b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkEvaluate is the greedy agent's per-move cost.
func BenchmarkEvaluate(b *testing.B) {
	states := benchStates(b)
	b.ReportAllocs()
	b.ResetTimer()
	var sink float64
	for i := 0; i < b.N; i++ {
		sink += states[i%len(states)].Evaluate(i & 1)
	}
	_ = sink
}

func benchStates(b *testing.B) []*State {
	var out []*State
	rng := game.NewRNG(9)
	for g := uint64(0); len(out) < 1000; g++ {
		st, _ := Game{}.New(nil, g)
		s := st.(*State)
		for len(out) < 1000 && !s.Outcome().Over() {
			out = append(out, s.Clone().(*State))
			ms := s.Legal(nil)
			s.Play(ms[rng.IntN(len(ms))])
		}
	}
	return out
}
