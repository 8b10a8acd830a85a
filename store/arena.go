package store

import (
	"context"
	"time"
)

// Arena is what an arena tournament has besides a Tournament's settings:
// its length from the start, and whether its players may berserk.
type Arena struct {
	Duration time.Duration
	Berserk  bool
}

// ArenaGame is what an arena keeps of a finished board besides its
// result: when its game ended (a streak runs in that order) and which
// players berserked.
type ArenaGame struct {
	Round, Board               int
	Ended                      time.Time
	WhiteBerserk, BlackBerserk bool
}

// Arenas is the arena part of the tournaments (Tournaments holds the rest:
// an arena's pairing waves are its rounds, each a round of boards).
type Arenas interface {
	// CreateArena stores t (as CreateTournament) and a in one transaction.
	CreateArena(ctx context.Context, t *Tournament, a Arena) error
	// Arena returns an arena's own settings; ErrNotFound if the
	// tournament is not an arena.
	Arena(ctx context.Context, id string) (Arena, error)
	// SetArenaPaused pauses or resumes player uid; ErrNotFound if uid has
	// not joined.
	SetArenaPaused(ctx context.Context, id string, uid int64, paused bool) error
	// ArenaPaused lists the paused players.
	ArenaPaused(ctx context.Context, id string) (map[int64]bool, error)
	// ArenaGames lists what is kept of the finished boards, in the order
	// their games ended (then round, board).
	ArenaGames(ctx context.Context, id string) ([]ArenaGame, error)
	// SetArenaResultFenced records a board's result (as
	// SetBoardResultFenced) with g in the same transaction.
	SetArenaResultFenced(ctx context.Context, epoch int64, id string, result string, g ArenaGame) error
	// ArenaOfGame returns the arena whose board game gameID is, with that
	// board; ErrNotFound if it is no arena's game.
	ArenaOfGame(ctx context.Context, gameID string) (string, TournamentBoard, error)
	// SetGameBerserk marks seat as berserked in a live game's stored
	// clock (match.CmdBerserk writes the deadline, not the clock), so that
	// a game taken over by another node, or restarted, keeps the halved
	// clock, and the director reads the berserk when the game ends. It
	// reads and writes the clock in one transaction: two players
	// berserking at once both keep their mark.
	SetGameBerserk(ctx context.Context, gameID string, seat int) error
}
