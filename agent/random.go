package agent

import (
	"context"

	"github.com/tabula-games/tabula/game"
)

// Random plays a uniformly random legal move. It is the baseline every other
// agent must beat.
type Random struct {
	rng game.RNG
	buf []game.Move
}

// NewRandom returns a random agent with its own seeded generator.
func NewRandom(seed uint64) *Random { return &Random{rng: game.NewRNG(seed)} }

// Name implements Agent.
func (r *Random) Name() string { return "random" }

// Cores is 0: a random choice costs next to nothing, so no pool of search
// workers needs to wait for it.
func (r *Random) Cores() int { return 0 }

// Choose implements Agent.
func (r *Random) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	s := obs.World()
	r.buf = s.Legal(r.buf[:0])
	if len(r.buf) == 0 {
		return 0, game.ErrGameOver
	}
	return r.buf[r.rng.IntN(len(r.buf))], nil
}
