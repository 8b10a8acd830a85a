package store

import (
	"context"
	"time"
)

// RatingChange is one player's rating before and after one rated game,
// written in the transaction that finishes the game (so exactly once per
// game and player, whichever node ends it and however often the end is
// retried).
type RatingChange struct {
	GameID string
	UserID int64
	Game   string
	// Before is the rating the update started from: the default rating
	// (1500) for a player's first rated game in Game.
	Before float64
	After  float64
	// BeforeGames is the number of rated games in Game the player had
	// finished before this one.
	BeforeGames    int
	DeviationAfter float64
	At             time.Time
}

// RatingHistory is the rating changes of finished rated games.
type RatingHistory interface {
	// RatingChanges lists a user's rating changes, oldest first; in one
	// game when game is not "", the newest limit of them (0: 500).
	RatingChanges(ctx context.Context, userID int64, game string, limit int) ([]RatingChange, error)
	// GameRatingChanges lists the rating changes of one game, by user id
	// (empty for a game that changed no rating).
	GameRatingChanges(ctx context.Context, gameID string) ([]RatingChange, error)
}

// Block is one user blocking another.
type Block struct {
	UserID    int64 // who blocks
	BlockedID int64
	Name      string // the blocked user's name, when listed
	Created   time.Time
}

// Blocks is who blocks whom.
type Blocks interface {
	// Block records that userID blocks blockedID; blocking twice is one
	// block (the first time is kept).
	Block(ctx context.Context, b Block) error
	// Unblock removes a block; removing a missing one is ErrNotFound.
	Unblock(ctx context.Context, userID, blockedID int64) error
	// BlockList lists the users userID blocks, newest first.
	BlockList(ctx context.Context, userID int64) ([]Block, error)
	// Blocked reports whether userID blocks blockedID.
	Blocked(ctx context.Context, userID, blockedID int64) (bool, error)
}
