// Package skjuub implements Skjuub, the game of skewed cubes, by the rules in
// docs/rules/skjuub.md. No rulebook diagram of the game exists, so the piece
// geometry is the project's model (see board.go and docs/rules/skjuub.md):
// two orthogonal neighbours with the same overhang direction are connected
// (both inactive), an overhang that leans into another piece is a collision,
// and everything else is free.
package skjuub

import (
	"fmt"

	"github.com/tabula-games/tabula/game"
)

func init() { game.Register(Game) }

// Game is the registered Skjuub game.
var Game game.Game = skjuub{}

type skjuub struct{}

// poolSize is the number of skjuubs each player owns (on the board or in the
// pool).
const poolSize = 11

// maxTurnsLimit bounds the maxturns option so that the repetition history
// fits a fixed array in the state (one entry per turn start).
const maxTurnsLimit = 1000

func (skjuub) Name() string  { return "skjuub" }
func (skjuub) Title() string { return "Skjuub" }

// Facts: two seats, everything in sight, no chance.
func (skjuub) Facts() game.Facts { return game.Facts{MinPlayers: 2, MaxPlayers: 2} }

func (skjuub) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "opposite_overhangs", Doc: "two overhangs from opposite sides may share an empty square (allow) or not (forbid)", Default: "allow", Values: []string{"allow", "forbid"}},
		{Name: "edge", Doc: "overhangs may stick out past the board edge (open) or not (closed)", Default: "open", Values: []string{"open", "closed"}},
		{Name: "tumble", Doc: "a tumble is checked at its end square only (end) or also forbids the one case its sweep collides (sweep)", Default: "end", Values: []string{"end", "sweep"}},
		{Name: "backtrack", Doc: "the no-backtracking rule binds the main action (main) or every action of the turn (any)", Default: "main", Values: []string{"main", "any"}},
		{Name: "maxturns", Doc: "house rule: the game is drawn after this many turns (a third repetition also draws)", Default: "300", Min: 1, Max: maxTurnsLimit, House: true},
	}
}

// rules are the option values a state plays under. States point to one of
// the few shared, immutable rules values.
type rules struct {
	forbidOpposite bool
	closedEdge     bool
	sweep          bool
	backtrackAny   bool
	maxTurns       int
	opts           game.Options
}

// newRules reads o; its error does not name the game (its callers do).
func newRules(g game.Game, o game.Options) (*rules, error) {
	full, err := game.CheckOptions(g, o)
	if err != nil {
		return nil, err
	}
	return &rules{
		forbidOpposite: full.Get("opposite_overhangs") == "forbid",
		closedEdge:     full.Get("edge") == "closed",
		sweep:          full.Get("tumble") == "sweep",
		backtrackAny:   full.Get("backtrack") == "any",
		maxTurns:       full.Int("maxturns"),
		opts:           full,
	}, nil
}

func (g skjuub) New(opts game.Options, seed uint64) (game.State, error) {
	r, err := newRules(g, opts)
	if err != nil {
		return nil, fmt.Errorf("skjuub: %w", err)
	}
	s := &State{}
	s.reset(r)
	return s, nil
}
