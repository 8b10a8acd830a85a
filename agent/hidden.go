package agent

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Sampling searches games with hidden information honestly: it never looks
// at what its seat cannot see. Every iteration draws a fresh world
// consistent with the seat's view (game.HiddenInfo.Determinize, which reads
// only the view), tries one of the root moves in it and plays on with the
// game's heuristic policy for every seat to the end of the round (or game),
// then scores the result with the game's evaluator — for Skyjo, the chance
// of winning the game, not the round score, so the round-ending decision is
// judged by what it does to the match. Root moves are chosen by UCB1, so
// the budget goes to the moves that matter.
//
// Searching only at the root avoids strategy fusion (a tree of later
// decisions would average over cards not yet seen); the policy supplies
// sensible later play. This is determinized flat Monte Carlo with policy
// rollouts, a one-step policy improvement over the greedy bot.
type Sampling struct {
	cfg       MCTSConfig
	name      string
	rng       game.RNG
	workers   []*sampler
	LastStats SearchStats
}

// samplingC is the UCB1 constant at the root: rewards are win chances in
// [0,1] whose differences between moves are small, so exploration is
// gentler than in the tree search.
const samplingC = 0.25

// maxRolloutPlies bounds a rollout where a game gives no round structure.
const maxRolloutPlies = 400

// NewSampling returns a sampling searcher.
func NewSampling(cfg MCTSConfig, seed uint64) *Sampling {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.C == 0 {
		cfg.C = samplingC
	}
	if cfg.Time == 0 && cfg.Iters == 0 {
		cfg.Iters = DefaultIters
	}
	a := &Sampling{cfg: cfg, rng: game.NewRNG(seed), name: "mcts"}
	for i := 0; i < cfg.Workers; i++ {
		a.workers = append(a.workers, &sampler{cfg: &a.cfg, rng: a.rng.Split()})
	}
	return a
}

// Name implements Agent.
func (a *Sampling) Name() string { return a.name }

// Stats reports what the last Choose did.
func (a *Sampling) Stats() SearchStats { return a.LastStats }

// Choose implements Agent.
func (a *Sampling) Choose(ctx context.Context, s game.State) (game.Move, error) {
	if s.Outcome().Over() {
		return 0, game.ErrGameOver
	}
	legal := s.Legal(nil)
	if len(legal) == 1 {
		return legal[0], nil
	}
	start := time.Now()
	var deadline time.Time
	if a.cfg.Time > 0 {
		deadline = start.Add(a.cfg.Time)
	}
	var wg sync.WaitGroup
	for _, w := range a.workers {
		wg.Add(1)
		go func(w *sampler) {
			defer wg.Done()
			w.search(ctx, s, legal, deadline)
		}(w)
	}
	wg.Wait()
	visits := make([]float64, len(legal))
	sums := make([]float64, len(legal))
	st := SearchStats{Elapsed: time.Since(start)}
	for _, w := range a.workers {
		st.Iterations += w.iters
		for i := range legal {
			visits[i] += w.visits[i]
			sums[i] += w.sums[i]
		}
	}
	a.LastStats = st
	if st.Iterations == 0 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	best, bestV := 0, math.Inf(-1)
	for i := range legal {
		if visits[i] == 0 {
			continue
		}
		if v := sums[i] / visits[i]; v > bestV {
			best, bestV = i, v
		}
	}
	return legal[best], nil
}

// sampler is one worker of a Sampling search.
type sampler struct {
	cfg          *MCTSConfig
	rng          game.RNG
	world        game.State
	visits, sums []float64
	buf          []game.Move
	iters        int
}

func (w *sampler) search(ctx context.Context, s game.State, legal []game.Move, deadline time.Time) {
	h := s.(game.HiddenInfo)
	me := s.ToMove()
	n := s.NumPlayers()
	if w.world == nil {
		w.world = s.Clone()
	}
	w.visits = resize(w.visits, len(legal))
	w.sums = resize(w.sums, len(legal))
	w.iters = 0
	round := -1
	if r, ok := s.(game.Rounds); ok {
		round = r.Round()
	}
	for {
		if w.iters&(checkEvery-1) == 0 && w.iters > 0 {
			if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				return
			}
		}
		if w.cfg.Iters > 0 && w.iters >= w.cfg.Iters {
			return
		}
		i := w.pick()
		h.Determinize(w.world, me, &w.rng)
		w.world.Play(legal[i])
		v := w.rollout(w.world, me, n, round)
		w.visits[i]++
		w.sums[i] += v
		w.iters++
	}
}

// pick applies UCB1 over the root moves, trying each once first.
func (w *sampler) pick() int {
	total := 0.0
	for i, v := range w.visits {
		if v == 0 {
			return i
		}
		total += v
	}
	logN := math.Log(total)
	best, bestV := 0, math.Inf(-1)
	for i, v := range w.visits {
		u := w.sums[i]/v + w.cfg.C*math.Sqrt(logN/v)
		if u > bestV {
			best, bestV = i, u
		}
	}
	return best
}

// rollout plays the game's policy (or random moves) to the end of the round
// and returns me's reward in [0,1].
func (w *sampler) rollout(s game.State, me, n, round int) float64 {
	pol, hasPolicy := s.(game.Policy)
	rs, hasRounds := s.(game.Rounds)
	for k := 0; k < maxRolloutPlies; k++ {
		if s.Outcome().Over() {
			return s.Outcome().Reward(me, n)
		}
		if hasRounds && rs.Round() != round {
			break
		}
		if hasPolicy {
			s.Play(pol.PolicyMove(&w.rng))
		} else {
			w.buf = s.Legal(w.buf[:0])
			s.Play(w.buf[w.rng.IntN(len(w.buf))])
		}
	}
	if o := s.Outcome(); o.Over() {
		return o.Reward(me, n)
	}
	if e, ok := s.(game.Evaluator); ok {
		return (e.Evaluate(me) + 1) / 2
	}
	return 1 / float64(n)
}

func resize(x []float64, n int) []float64 {
	if cap(x) < n {
		return make([]float64, n)
	}
	x = x[:n]
	for i := range x {
		x[i] = 0
	}
	return x
}
