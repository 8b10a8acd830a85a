package match

import (
	"maps"
	"slices"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Quick pairing: pick a game and a time control, and be seated at once in
// the game of a player waiting for the same, or else wait in a new open
// game of your own. A pairing game is unrated, with the game's default
// options and one of PairingClocks: a waiting game is one of those, open,
// its creator the only one seated and every other seat open, created within
// PairingWindow. Asking again for the same game and time control returns
// the game you wait in, so a user waits at most once per game and time
// control however often they ask. The server lists the open games and runs
// the joins; who pairs with whom is decided here.

// PairingClocks are the time controls of quick pairing, by name.
var PairingClocks = map[string]Clock{
	"none":           {Kind: ClockNone},
	"blitz":          {Kind: ClockRealtime, InitialMs: 300000, IncrementMs: 3000},
	"rapid":          {Kind: ClockRealtime, InitialMs: 900000, IncrementMs: 10000},
	"correspondence": {Kind: ClockCorrespondence, Days: 3},
}

// PairingWindow is how old a waiting game may be to be joined.
const PairingWindow = 10 * time.Minute

// Pairing is one ask for quick pairing: a game and a time control.
type Pairing struct {
	Game    string
	Clock   Clock
	Options game.Options // the game's defaults, complete
}

// NewPairing checks an ask for a game of the named game and time control
// ("" is "none").
func NewPairing(gameName, clock string) (Pairing, error) {
	g, err := game.Lookup(gameName)
	if err != nil {
		return Pairing{}, errorf(CodeBadOption, "unknown game %q", gameName)
	}
	if clock == "" {
		clock = "none"
	}
	c, ok := PairingClocks[clock]
	if !ok {
		return Pairing{}, errorf(CodeBadOption, "clock %q: want one of %v", clock, slices.Sorted(maps.Keys(PairingClocks)))
	}
	opts, err := game.Complete(g, nil)
	if err != nil {
		return Pairing{}, err // the game's defaults are its own bug: not the asker's
	}
	return Pairing{Game: g.Name(), Clock: c, Options: opts}, nil
}

// Waiting reports whether m is a game waiting for this pairing at now: of
// this game and time control, unrated, from the ordinary start, its creator
// alone in seat 0, every other seat open, created within PairingWindow.
func (p *Pairing) Waiting(m *Meta, now time.Time) bool {
	if m.Status != Open || m.Game != p.Game || m.Rated || len(m.StartPosition) > 0 || !maps.Equal(m.Options, p.Options) ||
		m.Clock != p.Clock || now.Sub(m.Created) > PairingWindow {
		return false
	}
	for i, se := range m.Seats {
		if (i == 0) != (se.Kind == SeatHuman && se.UserID == m.CreatorID) || (i > 0 && se.Kind != SeatOpen) {
			return false
		}
	}
	return true
}

// Partners are the games of open (the open games of the pairing's game)
// that user uid may join, in the order to try them: waiting games of
// other players, as listed.
func (p *Pairing) Partners(open []Meta, uid int64, now time.Time) []*Meta {
	var out []*Meta
	for i := range open {
		if m := &open[i]; p.Waiting(m, now) && m.CreatorID != uid {
			out = append(out, m)
		}
	}
	return out
}

// Own is the game of open in which user uid waits already, or nil.
func (p *Pairing) Own(open []Meta, uid int64, now time.Time) *Meta {
	for i := range open {
		if m := &open[i]; p.Waiting(m, now) && m.CreatorID == uid {
			return m
		}
	}
	return nil
}

// NewGame is the game the asker waits in when no one waits for them. It
// names no seats: Registry.Create seats its creator and leaves the others
// open.
func (p *Pairing) NewGame(id string, created time.Time) Meta {
	return Meta{ID: id, Game: p.Game, Clock: p.Clock, Created: created}
}
