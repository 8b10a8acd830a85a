// Package skyjo implements Skyjo as Tabula plays it (docs/rules/skyjo.md): 2
// to 8 players, a 150-card deck, 3×4 grids dealt face down, rounds until a
// total reaches the target.
//
// Skyjo is the project's game with chance and hidden cards. The true state
// carries the shuffled deck and every face-down value, and a game.RNG seeded
// from New's seed from which every shuffle is drawn, so a game is exactly
// reproducible from its seed. Players and bots see only View, the one public
// view shared by every seat; search samples the unseen cards with
// Determinize, which is built from the view alone.
//
// State is a flat value (fixed arrays, no slices or maps), so CopyFrom is one
// copy and nothing on the playout path allocates.
package skyjo

import (
	"fmt"

	"github.com/tabula-games/tabula/game"
)

// Game is Skyjo's game.Game. Its zero value is ready to use.
type Game struct{}

// Skyjo is the registered game value.
var Skyjo game.Game = Game{}

func init() { game.Register(Skyjo) }

// Name implements game.Game.
func (Game) Name() string { return "skyjo" }

// Title implements game.Game.
func (Game) Title() string { return "Skyjo" }

// Facts implements game.Game: 2 to 8 seats, face-down cards and a shuffled deck.
func (Game) Facts() game.Facts {
	return game.Facts{MinPlayers: 2, MaxPlayers: MaxPlayers, HiddenInfo: true, Chance: true}
}

// The option names of the spec.
const (
	optPlayers  = game.PlayersOption
	optStarter  = "starter"
	optColumns  = "columns"
	optDouble   = "double"
	optMaxTurns = "maxturns"
	optTarget   = "target"
)

var optionSpecs = []game.OptionSpec{
	{Name: optPlayers, Doc: "number of players", Default: "2", Min: 2, Max: MaxPlayers},
	{Name: optStarter, Doc: "who starts rounds after the first: the previous round's winner (seed) or the player who ended it (printed rules)",
		Default: "winner", Values: []string{"winner", "finisher"}},
	{Name: optColumns, Doc: "remove a column of three equal face-up cards", Default: "on", Values: []string{"on", "off"}},
	// The source doubles the score whatever its sign; the printed rules
	// double only a positive one. Unlike the other options, the rules
	// (docs/rules/skyjo.md, "Doubling") make the printed rule the default:
	// doubling a negative score would reward the ender for not being lowest.
	{Name: optDouble, Doc: "double the round ender's score when not strictly lowest: only a positive one (positive, printed rules, the default) or any score (always, the source)",
		Default: "positive", Values: []string{"positive", "always"}},
	{Name: optMaxTurns, Doc: "house rule: a round stops, nobody doubled, after this many turns per player (or when the deck runs out a second time)",
		Default: "100", Min: 1, Max: 1000, House: true},
	{Name: optTarget, Doc: "the game ends after a round in which a total reaches this", Default: "100", Min: 1, Max: 10000},
}

// Options implements game.Game.
func (Game) Options() []game.OptionSpec {
	return append([]game.OptionSpec(nil), optionSpecs...)
}

// MaxPlayers is the largest table Skyjo is played at.
const MaxPlayers = 8

// config is the options of one game in the form the rules use.
type config struct {
	players  int8
	finisher bool // starter=finisher
	columns  bool // columns=on
	always   bool // double=always
	maxTurns int16
	target   int32
}

func configFrom(o game.Options) config {
	return config{
		players:  int8(o.Int(optPlayers)),
		finisher: o.Get(optStarter) == "finisher",
		columns:  o.Get(optColumns) == "on",
		always:   o.Get(optDouble) == "always",
		maxTurns: int16(o.Int(optMaxTurns)),
		target:   int32(o.Int(optTarget)),
	}
}

// options writes c back as the game's option values.
func (c config) options() game.Options {
	o := game.Options{
		optPlayers:  fmt.Sprint(c.players),
		optStarter:  "winner",
		optColumns:  "off",
		optDouble:   "positive",
		optMaxTurns: fmt.Sprint(c.maxTurns),
		optTarget:   fmt.Sprint(c.target),
	}
	if c.finisher {
		o[optStarter] = "finisher"
	}
	if c.columns {
		o[optColumns] = "on"
	}
	if c.always {
		o[optDouble] = "always"
	}
	return o
}

// New implements game.Game: the first round is dealt from a deck shuffled by
// a generator seeded with seed.
func (g Game) New(opts game.Options, seed uint64) (game.State, error) {
	return NewState(opts, seed)
}

// NewState is New with the concrete type.
func NewState(opts game.Options, seed uint64) (*State, error) {
	full, err := game.Complete(Skyjo, opts)
	if err != nil {
		return nil, err
	}
	s := &State{}
	s.start(configFrom(full), seed)
	return s, nil
}

// Reset starts a new game with the receiver's options and the given seed,
// reusing the receiver's memory (benchmarks and simulations play many games
// without allocating).
func (s *State) Reset(seed uint64) { s.start(s.cfg, seed) }
