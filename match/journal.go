package match

import (
	"context"
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

// Holder is a Journal whose games another node may take over (package
// cluster's). A write tells an owner that it has been deposed (ErrDeposed),
// but a refusal writes nothing: an owner deposed while it wrote nothing
// would go on refusing commands — a move at the real next ply as stale, or
// as another seat's turn — from a picture of the game that stopped when it
// lost it. So before an owner refuses a command for a reason that depends
// on the game as it holds it, it asks Holds; when another node holds the
// game the owner stops and answers ErrClosed, and the caller forwards the
// command to the game's owner.
type Holder interface {
	// Holds is nil while this node still holds game id, and wraps
	// ErrDeposed when another node has taken it over.
	Holds(ctx context.Context, id string) error
}
