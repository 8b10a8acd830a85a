package skyjo

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// Grid geometry. A position index is col*3+row (col a–d = 0–3, row 1–3 =
// 0–2), so a column is three adjacent bits of a grid mask.
const (
	gridCards = 12
	gridMask  = 1<<gridCards - 1
	colMask   = 0b111
	deckSize  = 150
)

// noCard marks an empty held-card slot. Card values are their face values,
// −2…12, stored as int8.
const noCard int8 = -128

// phase is where in a round the seat to move is.
type phase uint8

const (
	phaseFlips  phase = iota // the two initial flips of every player
	phaseChoose              // a turn begins: take or draw
	phaseDrawn               // a drawn card is held: swap or discard and flip
	phaseTook                // the taken discard is held: swap
	phaseOver                // the game is over
)

var phaseNames = [...]string{"initial_flips", "choose", "drawn", "took", "game_over"}

// State is a Skyjo position with everything that decides its future: the
// deck order and the face-down values (which View never shows) and the
// generator of future shuffles. It is a flat value: copying it copies the
// game.
type State struct {
	cfg  config
	seed uint64   // New's seed, kept for the chance record
	rng  game.RNG // draws every shuffle of this game

	round      int32 // 1-based
	turn       int32 // turns completed in this round (house-rule limit)
	phase      phase
	toMove     int8  // -1 once the game is over
	starter    int8  // who takes the round's first turn; -1 until known (round 1 flips)
	ender      int8  // who ended the round, -1 if nobody yet
	reshuffles uint8 // deck reshuffles in this round (a second run-out ends it)
	held       int8  // the card taken or drawn, noCard when none
	winners    uint8 // bit set of winners once the game is over

	totals [MaxPlayers]int32
	cards  [MaxPlayers][gridCards]int8
	up     [MaxPlayers]uint16 // face-up positions
	gone   [MaxPlayers]uint16 // positions of removed columns (hold no card)

	deckN uint8
	discN uint8
	deck  [deckSize]int8 // deck[deckN-1] is the top
	disc  [deckSize]int8 // disc[discN-1] is the top

	rec record
}

// start sets up a new game: options, generator, first deal.
func (s *State) start(c config, seed uint64) {
	s.cfg = c
	s.seed = seed
	s.rng = game.NewRNG(seed)
	s.round = 1
	s.totals = [MaxPlayers]int32{}
	s.winners = 0
	s.starter = -1
	s.rec.reset()
	s.deal()
}

// Game implements game.State.
func (s *State) Game() game.Game { return Skyjo }

// NumPlayers implements game.State.
func (s *State) NumPlayers() int { return int(s.cfg.players) }

// ToMove implements game.State.
func (s *State) ToMove() int { return int(s.toMove) }

// Outcome implements game.State: the lowest totals share the win.
func (s *State) Outcome() game.Outcome {
	if s.phase != phaseOver {
		return game.Outcome{}
	}
	return game.Outcome{Status: game.Won, Winners: s.winners}
}

// Clone implements game.State.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// CopyFrom implements game.State.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Options implements game.Configured.
func (s *State) Options() game.Options { return s.cfg.options() }

// SeatName implements game.State: seats are named 1…n, as the command line's
// --p1…--p8 (the JSON's toMove counts from 0).
func (s *State) SeatName(seat int) string {
	if seat < 0 || seat >= MaxPlayers {
		return "?"
	}
	return string(rune('1' + seat))
}

// Scores implements game.Scorer: every seat's total of the rounds finished.
func (s *State) Scores() []int {
	out := make([]int, s.cfg.players)
	for i := range out {
		out[i] = int(s.totals[i])
	}
	return out
}

// Round is the current round, from 1.
func (s *State) Round() int { return int(s.round) }

// Seed is the seed the game was started with (0 for a determinized state).
func (s *State) Seed() uint64 { return s.seed }

// down is seat p's face-down positions.
func (s *State) down(p int) uint16 { return gridMask &^ (s.up[p] | s.gone[p]) }

// present is seat p's positions that still hold a card.
func (s *State) present(p int) uint16 { return gridMask &^ s.gone[p] }

func popcount(m uint16) int { return bits.OnesCount16(m) }

func trailingZeros(m uint16) int { return bits.TrailingZeros16(m) }
