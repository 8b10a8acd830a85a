package match

import (
	"errors"
	"time"
)

// ErrConflict is what a Journal returns (wrapped) when a write finds the game
// other than it expects: a move's ply is not the next one, the game is not in
// the status the write needs, or its Version moved on. Nothing was written.
var ErrConflict = errors.New("conflict")

// Move is one committed decision.
type Move struct {
	Ply  int
	Seat int
	Text string // the game's notation
	At   time.Time
	// ClockMs is the mover's remaining realtime clock after the move
	// (increment included); 0 without a realtime clock.
	ClockMs int64
}

// Turn is what changes in the game with a move: who is to move next and by
// when.
type Turn struct {
	ToMove   int
	Deadline time.Time
}
