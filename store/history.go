package store

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/match"
)

// Outcomes of a finished game from one player's side (HistoryFilter.Outcome).
const (
	OutcomeWin  = "win"  // the player's seat is among the winners
	OutcomeDraw = "draw" // the game was drawn
	OutcomeLoss = "loss" // won by others: every seat not among the winners lost
)

// HistoryFilter selects one player's finished games for the game history.
// The zero value of each field selects any.
type HistoryFilter struct {
	// UserID is the player: games in which they held a person's seat
	// (not an invitation, not a game they only created or imported).
	UserID int64
	Game   string
	// Outcome is "", OutcomeWin, OutcomeDraw or OutcomeLoss.
	Outcome string
	// OpponentID, if not 0: games in which that user held another seat.
	OpponentID int64
	// Rated, if not nil: only rated (true) or unrated (false) games.
	Rated *bool
	// Clock, if not "": games with that kind of time control
	// (match.ClockNone also matches a game stored without a kind).
	Clock match.ClockKind
	// Realtime, if not nil, narrows Clock, which is then
	// match.ClockRealtime, to the realtime controls it selects.
	Realtime *RealtimeFilter
	// From and To, if not zero: finished at or after From, before To.
	From, To time.Time
	// After, if not nil, is where the previous page ended: only games
	// strictly after it in the history's order.
	After *HistoryPos
	// Limit is the most games returned (0: 50).
	Limit int
}

// RealtimeFilter selects realtime games by their time control: exactly
// InitialMs and IncrementMs when Exact, else by the estimated duration
// InitialMs + EstimatedMoves × IncrementMs in [MinMs, MaxMs) (MaxMs 0: no
// upper bound) — how lichess sorts its speeds.
type RealtimeFilter struct {
	Exact                  bool
	InitialMs, IncrementMs int64
	MinMs, MaxMs           int64
}

// EstimatedMoves is the number of a player's moves a realtime control's
// estimated duration counts increments for.
const EstimatedMoves = 40

// HistoryPos is a game's place in the history's order: newest finished
// first, ties broken by id (descending). A game finishing later is always
// placed before every page already read, so paging from a HistoryPos never
// repeats nor skips a game while new games finish.
type HistoryPos struct {
	Finished time.Time
	ID       string
}

// History is the players' game histories.
type History interface {
	// GameHistory lists a player's finished games matching f, newest
	// finished first (ties by id, descending), with their seats.
	GameHistory(ctx context.Context, f HistoryFilter) ([]match.Meta, error)
}
