package main

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/game"
)

// solverBenchPly is how far into random games the solver benchmark starts:
// late enough that most positions are solved in a fraction of a second, so
// the figure mixes many positions.
const solverBenchPly = 18

// solverSpeed measures g's exact solver (0 when it has none): nodes searched
// per second on one core while solving positions solverBenchPly plies into
// seeded random games, one after the other with one table, for about d.
func solverSpeed(g game.Game, d time.Duration) (float64, error) {
	if !game.HasSolver(g.Name()) {
		return 0, nil
	}
	sv, err := game.NewSolver(g.Name(), 64<<20)
	if err != nil {
		return 0, err
	}
	var buf []game.Move
	// The first solve is not timed: it brings the table into memory.
	var ctx context.Context
	var nodes int64
	var t0 time.Time
	for seed := uint64(1); ctx == nil || ctx.Err() == nil; seed++ {
		s, err := g.New(nil, seed)
		if err != nil {
			return 0, err
		}
		rng := game.NewRNG(seed)
		for i := 0; i < solverBenchPly && !s.Outcome().Over(); i++ {
			buf = s.Legal(buf[:0])
			s.Play(buf[rng.IntN(len(buf))])
		}
		if s.Outcome().Over() {
			continue
		}
		if ctx == nil {
			if _, err := sv.Solve(context.Background(), s, 0); err != nil {
				return 0, err
			}
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(context.Background(), d)
			defer cancel()
			t0 = time.Now()
			continue
		}
		sol, err := sv.Solve(ctx, s, 0)
		if err != nil {
			return 0, err
		}
		nodes += sol.Nodes
	}
	return float64(nodes) / time.Since(t0).Seconds(), nil
}
