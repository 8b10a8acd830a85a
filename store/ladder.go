package store

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/match"
)

// LadderEntry is one entrant of a game's ladder: a bot account (UserID,
// Level "") or a built-in level as an anchor (UserID 0, Level set).
type LadderEntry struct {
	Game   string
	UserID int64
	Level  string
	// Name is the account's name (a level's is its Level).
	Name string
	// MaxGames is the most ladder games it plays at once (an anchor's is
	// 0: the matchmaker bounds anchor games together).
	MaxGames int
	Joined   time.Time
	// Active: it is paired (a bot that left stays listed, inactive, with
	// its games).
	Active bool
	// Rating and Deviation: an anchor's fixed rating; a bot's rating in
	// the game (zero Games: none yet).
	Rating, Deviation float64
	Games             int
}

// Anchor reports whether e is a built-in level.
func (e LadderEntry) Anchor() bool { return e.Level != "" }

// Ladder game results (LadderGame.Result).
const (
	LadderPending = ""
	LadderFirst   = "first" // the first seat won
	LadderSecond  = "second"
	LadderDraw    = "draw"
	LadderAborted = "aborted" // never played: not counted
)

// LadderGame is one game of a ladder: the entrant on each seat and the
// result once it ended.
type LadderGame struct {
	GameID                  string
	Game                    string
	FirstUser, SecondUser   int64
	FirstLevel, SecondLevel string
	Created, Ended          time.Time
	Result                  string
}

// Ladder is the bot ladder. Its matchmaker's writes (creating and ending
// ladder games) are fenced by the epoch of the one ladder lease
// (ClaimLadder), as a tournament director's are by its tournament's.
type Ladder interface {
	// JoinLadder makes bot account uid an active entrant of game's
	// ladder playing at most maxGames at once (joining again changes
	// maxGames and makes it active).
	JoinLadder(ctx context.Context, game string, uid int64, maxGames int, now time.Time) error
	// LeaveLadder makes uid inactive in game's ladder (its games in
	// progress go on); ErrNotFound if uid never joined it.
	LeaveLadder(ctx context.Context, game string, uid int64) error
	// SetLadderAnchor adds or changes the anchor level of game's ladder,
	// held at rating ± deviation, active or not.
	SetLadderAnchor(ctx context.Context, game, level string, rating, deviation float64, active bool, now time.Time) error
	// LadderEntries lists game's entrants, active or not, with their
	// names and ratings.
	LadderEntries(ctx context.Context, game string) ([]LadderEntry, error)
	// LadderGames lists game's ladder games created at or after since
	// (all games for the zero time), newest first, at most limit.
	LadderGames(ctx context.Context, game string, since time.Time, limit int) ([]LadderGame, error)
	// PendingLadderGames lists the ladder games of every game not ended
	// yet, oldest first.
	PendingLadderGames(ctx context.Context) ([]LadderGame, error)

	// ClaimLadder makes node the matchmaker for ttl, as ClaimTournament
	// does for a tournament: the epoch to fence writes with, ErrConflict
	// while another node's lease is live, ErrDeposed for a renewal at an
	// epoch that is not the lease's any more.
	ClaimLadder(ctx context.Context, node string, epoch int64, ttl time.Duration) (int64, error)
	// ReleaseLadder ends node's lease now, if it still holds it at epoch.
	ReleaseLadder(ctx context.Context, node string, epoch int64) error
	// CreateLadderGameFenced records g (pending) before its game is
	// created; ErrDeposed if epoch is not the lease's, ErrLeftLadder if a
	// bot account of g is not an active entrant (it left the ladder after
	// the matchmaker read the entrants). The entrants' rows are locked
	// while g is written, so a leave either comes first and refuses g, or
	// comes after g is recorded (the bot then sees g among its ladder's
	// games in progress).
	CreateLadderGameFenced(ctx context.Context, epoch int64, g LadderGame) error
	// EndLadderGameFenced records a pending ladder game's result (ErrNotFound
	// if it is not pending: ended already). For a game between a bot and
	// an anchor it also rates the bot, in the same transaction: rate gets
	// the bot's current rating (Games 0 for none yet), the anchor's fixed
	// rating and deviation and the bot's score, and returns the rating to
	// store; the anchor's rating does not change.
	EndLadderGameFenced(ctx context.Context, epoch int64, gameID, result string, ended time.Time,
		rate func(bot match.Rating, anchorRating, anchorDeviation, score float64) match.Rating) error
}
