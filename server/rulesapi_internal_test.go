package server

import (
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/all"
)

// BenchmarkAnswerRules measures the costliest rules queries: a whole random
// game replayed move by move (each move validated by ParseMove), then a
// move tried and the legal moves listed. The move list's bound
// (maxRulesMoves) is what bounds this work.
func BenchmarkAnswerRules(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts map[string]string
	}{
		{"sgolte", map[string]string{"size": "7"}},
		{"skjuub", nil},
		{"sploof", nil},
		{"skyjo", map[string]string{"players": "8"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			g, _ := game.Lookup(tc.name)
			opts, _ := game.Complete(g, tc.opts)
			s, _ := g.New(opts, 1)
			rng := game.NewRNG(1)
			var moves []string
			for !s.Outcome().Over() && len(moves) < maxRulesMoves {
				ms := s.Legal(nil)
				m := ms[rng.IntN(len(ms))]
				moves = append(moves, s.FormatMove(m))
				s.Play(m)
			}
			last := moves[len(moves)-1]
			req := &rulesRequest{Options: tc.opts, Seed: 1, Moves: moves[:len(moves)-1], Move: last}
			b.ReportMetric(float64(len(moves)), "moves")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := answerRules(g, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
