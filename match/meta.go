package match

import (
	"bytes"
	"maps"
	"time"
)

// Status is a game's lifecycle stage.
type Status string

// The statuses a game passes through.
const (
	Open     Status = "open"     // waiting for players
	Live     Status = "live"     // being played
	Finished Status = "finished" // over; never changes again
	Aborted  Status = "aborted"  // cancelled before it started
	Imported Status = "imported" // a record imported for replay only
)

// Statuses lists every status, in lifecycle order.
var Statuses = []Status{Open, Live, Finished, Aborted, Imported}

// Valid reports whether s is one of the statuses.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// Over reports whether a game in this status has its complete record: it
// will never change again, and what was hidden may be shown.
func (s Status) Over() bool { return s == Finished || s == Imported }

// Meta is everything about one game except its moves, which are stored one
// row each.
type Meta struct {
	ID      string
	Game    string            // the registry name: "sgolte", …
	Options map[string]string // every option, defaults filled in
	// Seed decides every chance event of the game. It is secret while the
	// game is on (it would reveal Skyjo's deck).
	Seed uint64
	// StartPosition, when set, is the position JSON the game starts from
	// instead of the game's initial position for (Options, Seed); Origin
	// says whose it is (a game from a position is never rated).
	StartPosition []byte
	Origin        Origin
	// KeepDeal: the hidden part of StartPosition (Skyjo's face-down cards
	// and deck) is the creator's, which the creator may know; everyone who
	// joins agrees to it (Command.AcceptDeal). Without it the server deals
	// the hidden part afresh.
	KeepDeal bool
	// Expires, when set, makes the open game a challenge (challenge.go):
	// unless every seat is taken by then it is aborted at Expires (instead
	// of after the open-game expiry), and its invited players may decline
	// it with a reason. Zero: an ordinary game.
	Expires   time.Time
	Status    Status
	Seats     []Seat
	Clock     Clock
	Rated     bool
	CreatorID int64
	Created   time.Time
	Started   time.Time // zero until live
	Finished  time.Time // zero until finished or aborted
	Result    *Result
	// Ply is the number of moves played; ToMove the seat to move (-1 when
	// nobody is); Deadline when that seat loses on time (zero: never).
	// Journal.AppendMove maintains them.
	Ply      int
	ToMove   int
	Deadline time.Time
	// Version increases by one with every write of the game: a seat
	// change, the start, each move, the end. It is the game's event
	// number (Event.Seq), and Journal.UpdateGame succeeds only if it still
	// holds the version it read.
	Version int64
}

// Clone returns a copy of m that shares nothing mutable with it: seats,
// options, start position and result are copied (a caller may change its
// copy's options or start position without the registry's game seeing it).
func (m Meta) Clone() Meta {
	m.Seats = append([]Seat(nil), m.Seats...)
	m.Options = maps.Clone(m.Options)
	m.StartPosition = bytes.Clone(m.StartPosition)
	if m.Result != nil {
		r := *m.Result
		r.Winners = append([]int(nil), r.Winners...)
		r.Scores = append([]int(nil), r.Scores...)
		m.Result = &r
	}
	return m
}
