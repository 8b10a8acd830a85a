package agent

import (
	"context"
	"math"

	"github.com/tabula-games/tabula/game"
)

// Greedy plays the move whose immediate result the game's own heuristic
// likes best: a game.Policy where the game has one (Skyjo), otherwise the
// game.Evaluator value after each legal move. A move that wins at once is
// always taken; ties are broken at random so self-play games differ.
type Greedy struct {
	rng     game.RNG
	buf     []game.Move
	scratch game.State
}

// NewGreedy returns a greedy agent with its own seeded generator.
func NewGreedy(seed uint64) *Greedy { return &Greedy{rng: game.NewRNG(seed)} }

// Name implements Agent.
func (g *Greedy) Name() string { return "greedy" }

// Cores is 0: one ply of evaluation costs next to nothing, so no pool of
// search workers needs to wait for it.
func (g *Greedy) Cores() int { return 0 }

// Choose implements Agent.
func (g *Greedy) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	s := obs.World()
	if p, ok := s.(game.Policy); ok {
		if s.Outcome().Over() {
			return 0, game.ErrGameOver
		}
		return p.PolicyMove(&g.rng), nil
	}
	g.buf = s.Legal(g.buf[:0])
	if len(g.buf) == 0 {
		return 0, game.ErrGameOver
	}
	return g.best(s, g.buf), nil
}

// best returns the greedy choice among moves (a non-empty list of s's legal
// moves).
func (g *Greedy) best(s game.State, moves []game.Move) game.Move {
	if len(moves) == 1 {
		return moves[0]
	}
	if g.scratch == nil {
		g.scratch = s.Clone()
	}
	me := s.ToMove()
	n := s.NumPlayers()
	bestV, ties := math.Inf(-1), 0
	var best game.Move
	for _, m := range moves {
		g.scratch.CopyFrom(s)
		g.scratch.Play(m)
		v := Value(g.scratch, me, n)
		switch {
		case v > bestV:
			bestV, best, ties = v, m, 1
		case v == bestV:
			// Reservoir sampling keeps every tied move equally likely.
			ties++
			if g.rng.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}

// Value is the worth of s for seat: its reward mapped to [-1,1] when the
// game is over (a win is worth more than any heuristic), otherwise the game's
// heuristic, or 0 for a game without one.
func Value(s game.State, seat, numPlayers int) float64 {
	if o := s.Outcome(); o.Over() {
		return 4*o.Reward(seat, numPlayers) - 2 // beyond the heuristic's [-1,1]
	}
	if e, ok := s.(game.Evaluator); ok {
		return e.Evaluate(seat)
	}
	return 0
}
