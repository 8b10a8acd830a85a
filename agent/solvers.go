package agent

import (
	"sync"

	"github.com/tabula-games/tabula/game"
)

// The exact solvers' tables (32 MiB each for Sploof) are shared by the
// games of a process the way the search arenas are: a bot takes a solver
// for its move and gives it back when it has chosen, so a game that waits
// for a person holds none, and a server holds about as many tables as bots
// think at once, not one per game. A solver taken is Reset first, so a
// move's proof depends on its position alone — a bot with an iteration
// budget plays the same games on any machine, whatever else the process
// plays — at the price of what the game's earlier moves taught the table
// (measured in docs/ai.md; MCTSConfig.KeepSolver keeps it). A sync.Pool
// lets the collector take the tables back when no bot plays.

// solverKey names a pool: the game's solver, at one table size.
type solverKey struct {
	game  string
	bytes int
}

// solverPools maps a solverKey to its *sync.Pool.
var solverPools sync.Map

// takeSolver returns an idle solver of name's game with a table of bytes,
// reset, or a new one.
func takeSolver(name string, bytes int) (game.Solver, error) {
	if p, ok := solverPools.Load(solverKey{name, bytes}); ok {
		if sv, ok := p.(*sync.Pool).Get().(game.Solver); ok {
			sv.Reset()
			return sv, nil
		}
	}
	return game.NewSolver(name, bytes)
}

// putSolver gives sv, which takeSolver returned for (name, bytes), back for
// the next move of any game.
func putSolver(name string, bytes int, sv game.Solver) {
	p, _ := solverPools.LoadOrStore(solverKey{name, bytes}, new(sync.Pool))
	p.(*sync.Pool).Put(sv)
}
