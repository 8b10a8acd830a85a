// Package sploof implements Sploof, the four-in-a-row game on a Shibumi
// pyramid, as docs/rules/sploof.md rules it: placements on holes and on
// 2×2 platforms, red removals with pins and straight drop chains, a finite
// supply, 24 line windows with bridges and topmost-ball diagonals.
//
// Seat 0 is always White and seat 1 always Black; the option first decides
// which of them moves first.
package sploof

import (
	"github.com/tabula-games/tabula/game"
)

// Colours, which are also the seats.
const (
	White = 0
	Black = 1
)

var colourNames = [2]string{"white", "black"}

// The start of every game: reds on the twelve level-1 points outside the
// centre, 2 balls of each colour in stock and the other 14 in the supply.
const (
	startReds   = level1 &^ centreHoles
	startStock  = 2
	startSupply = 14
)

// Option values, kept in each state as small fields so that the hot path
// never reads a map.
const (
	firstWhite  = 0
	firstBlack  = 1
	firstRandom = 2
)

// Game is Sploof. Its zero value is ready to use and is what the package
// registers.
type Game struct{}

func init() { game.Register(Game{}) }

// Name implements game.Game.
func (Game) Name() string { return "sploof" }

// Title implements game.Game.
func (Game) Title() string { return "Sploof" }

// Facts implements game.Game: two seats, everything in sight; with
// first=random the seed decides who starts.
func (Game) Facts() game.Facts { return game.Facts{MinPlayers: 2, MaxPlayers: 2, Chance: true} }

// Options implements game.Game.
func (Game) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "bothlines", Doc: "a move that completes lines for both colours: the mover wins, or the game is drawn",
			Default: "mover", Values: []string{"mover", "draw"}},
		{Name: "first", Doc: "who moves first (random: decided by the game's seed)",
			Default: "random", Values: []string{"white", "black", "random"}},
		{Name: "supply", Doc: "finite: a red may be removed only while the supply holds 2 of your balls; unlimited: always",
			Default: "finite", Values: []string{"finite", "unlimited"}},
	}
}

// rules are the option values a state carries.
type rules struct {
	unlimited bool  // supply=unlimited
	bothDraw  bool  // bothlines=draw
	first     uint8 // firstWhite, firstBlack or firstRandom
}

func rulesOf(o game.Options) rules {
	r := rules{unlimited: o.Get("supply") == "unlimited", bothDraw: o.Get("bothlines") == "draw"}
	switch o.Get("first") {
	case "white":
		r.first = firstWhite
	case "black":
		r.first = firstBlack
	default:
		r.first = firstRandom
	}
	return r
}

func (r rules) options() game.Options {
	o := game.Options{"bothlines": "mover", "first": "random", "supply": "finite"}
	if r.bothDraw {
		o["bothlines"] = "draw"
	}
	if r.unlimited {
		o["supply"] = "unlimited"
	}
	if r.first != firstRandom {
		o["first"] = colourNames[r.first]
	}
	return o
}

// New implements game.Game. With first=random the seed decides who starts;
// the choice is kept in the state and written in its position JSON.
func (g Game) New(opts game.Options, seed uint64) (game.State, error) {
	opts, err := game.Complete(g, opts)
	if err != nil {
		return nil, err
	}
	s := &State{rules: rulesOf(opts)}
	s.red = startReds
	s.stock = [2]uint8{startStock, startStock}
	s.supply = [2]uint8{startSupply, startSupply}
	switch s.rules.first {
	case firstRandom:
		rng := game.NewRNG(seed)
		s.turn = uint8(rng.IntN(2))
	default:
		s.turn = s.rules.first
	}
	s.first = int8(s.turn)
	s.finish()
	return s, nil
}

// State is a Sploof position. It is a plain value: copying it copies the
// game.
type State struct {
	col    [2]uint32 // white and black balls
	red    uint32    // red balls (level 1 only)
	stock  [2]uint8
	supply [2]uint8
	turn   uint8 // colour to move (still recorded once the game is over)
	first  int8  // colour that moved first, -1 when unknown (a position read without it)
	rules  rules
	out    game.Outcome
	hash   uint64
	// stale says that hash is not kept: Playout leaves it so, since a
	// finished playout's hash is seldom asked for and computing it was 6%
	// of the playout's time. Hash computes it then; Play first restores it.
	stale bool
}

// Game implements game.State.
func (s *State) Game() game.Game { return Game{} }

// NumPlayers implements game.State.
func (s *State) NumPlayers() int { return 2 }

// ToMove implements game.State.
func (s *State) ToMove() int {
	if s.out.Over() {
		return -1
	}
	return int(s.turn)
}

// Outcome implements game.State.
func (s *State) Outcome() game.Outcome { return s.out }

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom implements game.State.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Options implements game.Configured.
func (s *State) Options() game.Options { return s.rules.options() }

// Hash implements game.State.
func (s *State) Hash() uint64 {
	if s.stale {
		return s.computeHash() // not stored: Hash stays a read, safe to share
	}
	return s.hash
}

// SeatName implements game.State: seat 0 is "white", seat 1 "black".
func (s *State) SeatName(seat int) string {
	if seat == White || seat == Black {
		return colourNames[seat]
	}
	return ""
}

// Stock returns how many balls colour (White or Black) has in hand.
func (s *State) Stock(colour int) int {
	if colour != White && colour != Black {
		return 0
	}
	return int(s.stock[colour])
}

// Supply returns how many balls of colour (White or Black) are left in the
// supply.
func (s *State) Supply(colour int) int {
	if colour != White && colour != Black {
		return 0
	}
	return int(s.supply[colour])
}

// occ is every occupied point.
func (s *State) occ() uint32 { return s.col[0] | s.col[1] | s.red }

// finish sets the outcome and the hash of a state built from scratch (New,
// ParsePosition). A position may already show lines; if both colours have
// one, the mover is the colour not to move.
func (s *State) finish() {
	s.hash, s.stale = s.computeHash(), false
	occ := s.occ()
	s.out = s.judge(hasLine(s.col[White], occ), hasLine(s.col[Black], occ), 1-s.turn)
	if !s.out.Over() && s.placeMask(occ)|s.removeMask(occ) == 0 {
		s.out = game.WinOutcome(int(1 - s.turn))
	}
}

// judge is the result of lines for white and black after mover's move.
func (s *State) judge(white, black bool, mover uint8) game.Outcome {
	switch {
	case white && black:
		if s.rules.bothDraw {
			return game.Outcome{Status: game.Drawn}
		}
		return game.WinOutcome(int(mover))
	case white:
		return game.WinOutcome(White)
	case black:
		return game.WinOutcome(Black)
	}
	return game.Outcome{}
}
