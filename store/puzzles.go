package store

import (
	"context"
	"time"
)

// Rated puzzles (issue 27, point 8): each registered player has a Glicko-2
// puzzle rating per game, each puzzle has its own, and a player's first
// attempt at a puzzle rates both in one transaction; later attempts at the
// same puzzle are answered but rate nothing. The streak (puzzles of rising
// difficulty until the first miss) and its best are kept per player and
// game. Everything is in the store, so that any node may serve any request.

// Glicko is a Glicko-2 rating as the puzzle tables keep it.
type Glicko struct {
	Rating, Deviation, Volatility float64
}

// PuzzleAttempt is one player's first attempt at one puzzle: the history's
// row. The ratings (Glicko-2 ratings without their deviations) are those
// before and after the attempt (equal when it was not rated).
type PuzzleAttempt struct {
	UserID int64
	Game   string
	Puzzle string // the puzzle's id (learn.Puzzle.ID)
	// Mode is where it was tried: "rated" (the list or the next rated
	// puzzle), "streak" or "daily".
	Mode   string
	Solved bool
	// Rated: the attempt changed the player's and the puzzle's ratings
	// (only a registered player's are rated).
	Rated                     bool
	PlayerBefore, PlayerAfter float64
	PuzzleBefore, PuzzleAfter float64
	At                        time.Time
}

// PuzzlePlayer is a player's puzzle rating and streak in one game.
type PuzzlePlayer struct {
	Rating Glicko
	Plays  int // rated attempts
	// Streak is the running streak's length (puzzles solved in a row),
	// StreakPuzzle the puzzle it waits for ("" when no streak runs), Seen
	// the puzzles it has shown, StreakBest the longest streak ever.
	Streak       int
	StreakPuzzle string
	StreakSeen   []string
	StreakBest   int
}

// PuzzleStat is one puzzle's rating and counts.
type PuzzleStat struct {
	Puzzle string
	Rating Glicko
	Plays  int // rated attempts
	Solved int // of which solved
}

// PuzzleRater computes the ratings after one attempt from those before it;
// the store calls it inside the transaction that holds both rows locked.
type PuzzleRater func(player, puzzle Glicko, solved bool) (Glicko, Glicko)

// PuzzleStreakNext picks the streak's next puzzle given the puzzles the
// streak has shown, the last one last; "" ends the streak (none is left).
type PuzzleStreakNext func(seen []string) string

// Puzzles is the store of the rated puzzles.
type Puzzles interface {
	// RecordPuzzleAttempt stores a as its player's first attempt at the
	// puzzle. With rate non-nil both ratings are read (a player or puzzle
	// never rated starts at playerStart or puzzleStart), rated and written
	// in the same transaction, the rows locked so that concurrent attempts
	// at the same puzzle or by the same player apply one after the other.
	// first is false, and nothing is written, when the player has
	// attempted the puzzle before; the stored attempt is returned either
	// way.
	RecordPuzzleAttempt(ctx context.Context, a PuzzleAttempt, playerStart, puzzleStart Glicko, rate PuzzleRater) (stored PuzzleAttempt, first bool, err error)
	// PuzzlePlayer returns the player's puzzle rating and streak in game;
	// a player who never played has start as rating and no streak.
	PuzzlePlayer(ctx context.Context, userID int64, game string, start Glicko) (PuzzlePlayer, error)
	// PuzzleStats returns the ratings of game's puzzles that were ever
	// attempted, by puzzle id.
	PuzzleStats(ctx context.Context, game string) (map[string]PuzzleStat, error)
	// PuzzleAttempts returns the player's attempts, newest first, of game
	// ("" all games), older than before (zero: any), at most limit.
	PuzzleAttempts(ctx context.Context, userID int64, game string, before time.Time, limit int) ([]PuzzleAttempt, error)
	// StartPuzzleStreak starts a new streak at puzzle first, replacing a
	// running one (which ends; the best is kept).
	StartPuzzleStreak(ctx context.Context, userID int64, game, first string, start Glicko, at time.Time) (PuzzlePlayer, error)
	// AnswerPuzzleStreak settles the running streak's puzzle: solved
	// lengthens the streak (and its best) and moves it to next's pick,
	// a miss ends it. ErrConflict when no streak runs or it waits for
	// another puzzle (an answer sent twice counts once).
	AnswerPuzzleStreak(ctx context.Context, userID int64, game, puzzle string, solved bool, next PuzzleStreakNext, start Glicko, at time.Time) (PuzzlePlayer, error)
}
