// Package agent holds the players that are not people: the Agent interface,
// the built-in bots and the bridge to outside programs. Agents know games
// only through the game contract and never import anything about HTTP.
package agent

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Agent chooses moves. An agent may keep state between moves of one game
// (a search tree to reuse), so each seat of each game gets its own Agent.
type Agent interface {
	// Name describes the agent as it was configured ("mcts:time=1s").
	Name() string
	// Choose returns a legal move for the seat to move within the agent's
	// budget, given only what that seat may know (game.Observe): in a game
	// with hidden information the observation has no path to the true
	// state, so no agent can play on what its seat cannot see. It returns
	// promptly with ctx.Err() (or its best move so far, if it has one) when
	// ctx is done.
	Choose(ctx context.Context, obs game.Observation) (game.Move, error)
}

// Ask hands a the observation of the seat to move in s (game.Observe) and
// returns its choice: the way a caller holding the true state asks a bot,
// so that the bot never sees that state. The move is one of s's legal moves
// if the agent keeps its contract; callers that cannot trust it check.
func Ask(ctx context.Context, a Agent, s game.State) (game.Move, error) {
	obs, err := game.Observe(s, s.ToMove())
	if err != nil {
		return 0, err
	}
	return a.Choose(ctx, obs)
}

// Closer is implemented by agents that hold resources (an outside process).
type Closer interface {
	Close() error
}

// WithCores returns a context in which a search runs at most n goroutines
// at once, however many workers its agent has: what a pool of search
// workers that granted a decision fewer cores than CoresOf asks for says to
// it. n < 1 counts as 1. The search's other workers sit it out (their
// trees are dropped: the next search they join starts them afresh).
func WithCores(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, coresKey{}, max(n, 1))
}

type coresKey struct{}

// CoresIn is the cap WithCores put on ctx (0: none).
func CoresIn(ctx context.Context) int {
	n, _ := ctx.Value(coresKey{}).(int)
	return n
}

// searching is how many of have workers a search on ctx may run.
func searching(ctx context.Context, have int) int {
	if n := CoresIn(ctx); n > 0 && n < have {
		return n
	}
	return have
}

// CoresOf is how many goroutines a's Choose keeps busy at once: the
// number a pool of search workers charges for it. 0 is a choice too cheap to
// schedule (random, greedy); agents that do not say count as 1.
func CoresOf(a Agent) int {
	if c, ok := a.(interface{ Cores() int }); ok {
		return max(c.Cores(), 0)
	}
	return 1
}

// ErrForfeit marks an agent failure that loses the game for its seat (an
// outside program's illegal, late or unreadable reply).
var ErrForfeit = errors.New("forfeit")

// Close releases a's resources if it has any.
func Close(a Agent) error {
	if c, ok := a.(Closer); ok {
		return c.Close()
	}
	return nil
}

// opening is what every search agent does before searching: refuse a
// finished game, answer a forced move at once, and blunder on purpose with
// probability eps (the easy levels). It returns the legal moves and, when
// the choice is already made, that move with done set.
func opening(s game.State, rng *game.RNG, eps float64) (legal []game.Move, m game.Move, done bool, err error) {
	if s.Outcome().Over() {
		return nil, 0, true, game.ErrGameOver
	}
	legal = s.Legal(nil)
	if len(legal) == 1 {
		return legal, legal[0], true, nil
	}
	if eps > 0 && rng.Float64() < eps {
		return legal, legal[rng.IntN(len(legal))], true, nil
	}
	return legal, 0, false, nil
}

// WithWorkerStart returns a context in which each goroutine a search
// runs its workers on calls start first, on that goroutine, which ends
// with the search: where a server lowers its search threads' priority
// (compute.LowerPriority).
func WithWorkerStart(ctx context.Context, start func()) context.Context {
	return context.WithValue(ctx, workerStartKey{}, start)
}

type workerStartKey struct{}

// parallel runs f(0)…f(n-1) on goroutines of their own, each started as
// ctx says (WithWorkerStart), and waits for all: the search agents'
// workers.
func parallel(ctx context.Context, n int, f func(i int)) {
	start, _ := ctx.Value(workerStartKey{}).(func())
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if start != nil {
				start()
			}
			f(i)
		}()
	}
	wg.Wait()
}

// deadline is when a search with the given budget started now must stop
// (zero for a budget in iterations only).
func deadline(start time.Time, budget time.Duration) time.Time {
	if budget <= 0 {
		return time.Time{}
	}
	return start.Add(budget)
}
