package game

import (
	"fmt"
	"strconv"
)

// Facts are what is fixed about a game whatever its options and position,
// as OpenSpiel's GameType: callers read them from the Game instead of
// building a throwaway state to find out. The conformance suite
// (game/gametest) checks that a game's states agree with its facts.
type Facts struct {
	// MinPlayers and MaxPlayers bound the number of seats over every option
	// setting. A game whose seat count varies sets it with the integer
	// option PlayersOption, whose range is exactly these bounds.
	MinPlayers, MaxPlayers int
	// HiddenInfo: some seat cannot see part of the state (Skyjo's face-down
	// cards). The game's states implement HiddenInfo, and what a seat is
	// handed goes through View and Observe.
	HiddenInfo bool
	// Chance: under some option setting New's seed decides chance events (a
	// shuffle, a random first player), so a game is reproduced only from its
	// seed or its start position.
	Chance bool
}

// PlayersOption is the option that sets the number of seats in a game whose
// seat count varies (Skyjo's "players").
const PlayersOption = "players"

// NumPlayers is the number of seats of a game of g under opts (nil or
// partial options get the defaults), without building a state.
func NumPlayers(g Game, opts Options) (int, error) {
	full, err := Complete(g, opts)
	if err != nil {
		return 0, err
	}
	f := g.Facts()
	if f.MinPlayers == f.MaxPlayers {
		return f.MinPlayers, nil
	}
	n, err := strconv.Atoi(full[PlayersOption])
	if err != nil {
		return 0, fmt.Errorf("%s: seats vary from %d to %d but there is no %q option", g.Name(), f.MinPlayers, f.MaxPlayers, PlayersOption)
	}
	return n, nil
}
