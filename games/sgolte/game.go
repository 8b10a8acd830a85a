// Package sgolte implements Sgolte, the hexhex splitting game, by the rules
// in docs/rules/sgolte.md: a placement that merges two or more of the mover's own
// groups must split an adjacent enemy group by flipping a chain of its
// stones; the player whose sorted group sizes are larger wins.
package sgolte

import (
	"fmt"

	"github.com/tabula-games/tabula/game"
)

func init() { game.Register(Game) }

// Game is the registered Sgolte game.
var Game game.Game = sgolte{}

type sgolte struct{}

// Colours. Seat 0 plays black until a pie swap exchanges the colours.
const (
	black = 0
	white = 1
)

var colourNames = [2]string{"black", "white"}

// minflip readings (spec rule 3).
const (
	minGlobal = iota // fewest flips over every adjacent group
	minGroup         // fewest flips within the group the mover picks
)

// continue readings (spec rule 4).
const (
	contOptional  = iota // the mover may stop after any increasing flip
	contMandatory        // the mover keeps flipping while an increasing flip exists
	contNone             // the split ends the flipping
)

// pie states, as the position JSON writes them.
const (
	pieOff     = iota // option pie=off
	piePending        // White may still answer Black's first stone with swap
	pieDone
)

var (
	minflipNames  = []string{"global", "group"}
	continueNames = []string{"optional", "mandatory", "none"}
	pieNames      = []string{"off", "pending", "done"}
)

func (sgolte) Name() string  { return "sgolte" }
func (sgolte) Title() string { return "Sgolte" }

// Facts: two seats, everything in sight, no chance (Black always starts).
func (sgolte) Facts() game.Facts { return game.Facts{MinPlayers: 2, MaxPlayers: 2} }

func (sgolte) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "size", Doc: "cells per side of the hexhex board", Default: "5", Values: []string{"5", "6", "7"}},
		{Name: "minflip", Doc: "fewest flips over all adjacent groups (global) or within the chosen group (group)", Default: "global", Values: minflipNames},
		{Name: "continue", Doc: "after the split, increasing flips may (optional), must (mandatory) or cannot (none) follow", Default: "optional", Values: continueNames},
		{Name: "pie", Doc: "White may swap colours after Black's first stone", Default: "on", Values: []string{"on", "off"}},
	}
}

// Options implements game.Configured.
func (s *State) Options() game.Options {
	pie := "off"
	if s.rules.pie {
		pie = "on"
	}
	return game.Options{"size": fmt.Sprint(s.size), "minflip": minflipNames[s.minflip], "continue": continueNames[s.cont], "pie": pie}
}

// rules are the option values a state plays under, as small numbers.
type rules struct {
	size    uint8
	minflip uint8
	cont    uint8
	pie     bool
}

func indexOf(list []string, v string) int {
	for i, s := range list {
		if s == v {
			return i
		}
	}
	return -1
}

func (g sgolte) New(opts game.Options, seed uint64) (game.State, error) {
	full, err := game.Complete(g, opts)
	if err != nil {
		return nil, err
	}
	r := rules{
		size:    uint8(full.Int("size")),
		minflip: uint8(indexOf(minflipNames, full.Get("minflip"))),
		cont:    uint8(indexOf(continueNames, full.Get("continue"))),
		pie:     full.Get("pie") == "on",
	}
	s := &State{rules: r, geo: geometryFor(int(r.size)), toMove: black, pie: pieOff}
	if r.pie {
		s.pie = piePending
	}
	s.rehash()
	return s, nil
}

func (s *State) Game() game.Game { return Game }
func (s *State) NumPlayers() int { return 2 }

// seatOf is the seat playing colour c.
func (s *State) seatOf(c int) int {
	if s.swapped {
		return c ^ 1
	}
	return c
}

// colourOf is the colour seat plays. The seat↔colour map is its own
// inverse (the identity, or exchange after a swap).
func (s *State) colourOf(seat int) int { return s.seatOf(seat) }

func (s *State) ToMove() int {
	if s.over() {
		return -1
	}
	return s.seatOf(int(s.toMove))
}

// SeatName is the colour the seat plays now, so it follows a pie swap.
func (s *State) SeatName(seat int) string {
	if seat < 0 || seat > 1 {
		return fmt.Sprintf("seat%d", seat)
	}
	return colourNames[s.colourOf(seat)]
}

func (s *State) Outcome() game.Outcome {
	if !s.over() {
		return game.Outcome{}
	}
	switch compareGroups(s.geo, s.stones[black], s.stones[white]) {
	case 1:
		return game.WinOutcome(s.seatOf(black))
	case -1:
		return game.WinOutcome(s.seatOf(white))
	}
	return game.Outcome{Status: game.Drawn}
}

func (s *State) Clone() game.State {
	c := *s
	return &c
}

func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

func (s *State) Hash() uint64 { return s.hash }
