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

// Journal is the durable record the owner of a game writes through (the
// store implements it). A write that returns nil is on disk; one that
// returns an error did not happen.
type Journal interface {
	// UpdateGame rewrites the lobby part of a game (status, seats, rated,
	// started, finished, to move, deadline) if its Version is still
	// m.Version, and increments m.Version. ErrConflict otherwise, or if the
	// stored game is finished.
	UpdateGame(ctx context.Context, m *Meta) error
	// AppendMove commits move mv of a live game: mv.Ply must equal the
	// number of moves already stored (ErrConflict otherwise — a stale or
	// duplicated move, or a second writer). turn updates who is to move.
	// If end is non-nil the game finishes in the same transaction. The
	// game's Version goes up by one, or by two with an end.
	AppendMove(ctx context.Context, gameID string, mv Move, turn Turn, end *End) error
	// EndGame finishes a live game without a move (resignation, time) and
	// increments its Version. ErrConflict if the game is not live.
	EndGame(ctx context.Context, gameID string, end End) error
	// Moves returns a game's moves in ply order.
	Moves(ctx context.Context, gameID string) ([]Move, error)
}
