package game

import (
	"context"
	"fmt"
)

// Solver proves positions of one game exactly: who wins with best play and
// how long the game lasts when the winner hurries and the loser holds out.
// A game offers one by registering a factory (RegisterSolver) from a package
// of its own; bots, analysis and `tabula solve` find it by the game's name.
// A Solver keeps its tables between calls (later positions of one game reuse
// earlier work) until Reset, and is not safe for concurrent use.
type Solver interface {
	// Solve searches s until it is proven, ctx is done, or the node budget
	// (0: none) is spent. An unproven result is not an error; a position
	// the solver cannot handle (options it does not support, a finished
	// game) is.
	Solve(ctx context.Context, s State, maxNodes int64) (Solution, error)
	// Reset forgets what earlier calls learned (tables, move-ordering
	// statistics), keeping the memory: the next Solve finds what a new
	// solver's would, in the same nodes. Bots share solvers between games
	// this way and still play the same moves for the same position.
	Reset()
}

// Solution is what a Solver found.
type Solution struct {
	// Proven is false when the budget ran out first; then only Nodes is set.
	Proven bool
	// Winner is the seat that wins with best play.
	Winner int
	// Plies is the length of the rest of the game with best play: the
	// winner takes the fastest win, the loser the longest resistance.
	Plies int
	// Line is the proving line from the position: Plies moves, the first
	// being the move to play.
	Line []Move
	// Nodes is the number of positions searched.
	Nodes int64
}

// NewSolverFunc makes a solver whose tables use about tableBytes of memory
// (0: the solver's default).
type NewSolverFunc func(tableBytes int) Solver

var solvers = byName[NewSolverFunc]{register: "RegisterSolver"}

// RegisterSolver makes a solver available for the named game. Solver
// packages call it from init; a second solver for one game panics at
// start-up.
func RegisterSolver(gameName string, f NewSolverFunc) { solvers.add(gameName, f) }

// NewSolver returns a fresh solver for the named game.
func NewSolver(gameName string, tableBytes int) (Solver, error) {
	f, ok := solvers.get(gameName)
	if !ok {
		return nil, fmt.Errorf("no exact solver for %s", gameName)
	}
	return f(tableBytes), nil
}

// HasSolver reports whether a solver is registered for the named game.
func HasSolver(gameName string) bool {
	_, ok := solvers.get(gameName)
	return ok
}
