package store

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TournamentStatus is where a tournament is in its life.
type TournamentStatus string

// The statuses of a tournament.
const (
	TournamentUpcoming TournamentStatus = "upcoming" // waiting for its start
	TournamentRunning  TournamentStatus = "running"  // rounds being played
	TournamentFinished TournamentStatus = "finished" // every round played, or cancelled
)

// Valid reports whether s is one of the statuses.
func (s TournamentStatus) Valid() bool {
	return s == TournamentUpcoming || s == TournamentRunning || s == TournamentFinished
}

// Tournament is a tournament's settings and state. Its rules (pairings,
// standings) are package tournament's; its running is package director's.
type Tournament struct {
	ID      string
	Name    string
	Format  string // "swiss" or "roundrobin"
	Game    string
	Options map[string]string
	Clock   match.Clock
	// Rounds is the number of rounds planned (a round robin's is set
	// when it starts, from its number of players).
	Rounds int
	// Double: a round robin played twice.
	Double bool
	Start  time.Time
	Rated  bool
	// PasswordHash is empty for an open tournament.
	PasswordHash  string
	MinRatedGames int
	Bots          bool
	MaxPlayers    int
	CreatorID     int64
	Created       time.Time
	Status        TournamentStatus
	Finished      time.Time
	// Note says why a tournament finished early ("" otherwise).
	Note string
	// Owner and Epoch are its director's lease: the node holding it and
	// the epoch every director write is fenced by.
	Owner string
	Epoch int64
}

// TournamentPlayer is one player of a tournament.
type TournamentPlayer struct {
	UserID int64
	Name   string // filled in on reading
	// Number is the player's pairing number from 0, in the order they
	// joined.
	Number    int
	Joined    time.Time
	Withdrawn bool
	// BotLevel is a built-in bot's level (its UserID is negative: BotID), ""
	// for a user (tournamentbots.go).
	BotLevel string
}

// Board results of a tournament round. A board whose game could not be
// played (it was aborted) is BoardNotPlayed: neither player scores.
const (
	BoardPending   = ""
	BoardWhiteWins = "1-0"
	BoardBlackWins = "0-1"
	BoardDraw      = "1/2-1/2"
	BoardNotPlayed = "-"
	// BoardBye is the result of a bye (Black is 0): a point for White.
	BoardBye = "bye"
)

// TournamentBoard is one pairing of a round.
type TournamentBoard struct {
	Board        int   // from 0
	White, Black int64 // user ids; Black is 0 for a bye
	GameID       string
	Result       string
}

// TournamentRound is one round's pairings.
type TournamentRound struct {
	Number int // from 1
	Boards []TournamentBoard
}

// TournamentFilter selects tournaments for listings.
type TournamentFilter struct {
	Statuses []TournamentStatus // empty: any
	Creator  int64              // 0: any
	Player   int64              // 0: any; else tournaments the user is in (not withdrawn)
	Limit    int                // 0: 50
}

// Tournaments is tournaments, their players and rounds, and the lease of
// each one's director. The director's writes are fenced like a game
// owner's (Leases): each carries the epoch its claim returned and fails
// with ErrDeposed once another director has claimed the tournament.
// Leases are timed by the database's clock.
type Tournaments interface {
	// CreateTournament stores t (status upcoming, no owner).
	// ErrConflict if its ID is taken.
	CreateTournament(ctx context.Context, t *Tournament) error
	// Tournament returns one tournament.
	Tournament(ctx context.Context, id string) (Tournament, error)
	// ListTournaments lists tournaments by start time (the latest first for
	// finished ones only, else the soonest first), then id.
	ListTournaments(ctx context.Context, f TournamentFilter) ([]Tournament, error)
	// JoinTournament adds user uid to a tournament that is not finished,
	// with the next pairing number, or brings back one who withdrew.
	// Joining twice is not an error. ErrConflict when the tournament is
	// finished, or has max players (not counting those who withdrew)
	// already.
	JoinTournament(ctx context.Context, id string, uid int64, now time.Time, max int) (TournamentPlayer, error)
	// WithdrawTournament marks uid withdrawn; ErrNotFound if uid is not
	// in the tournament.
	WithdrawTournament(ctx context.Context, id string, uid int64) error
	// TournamentPlayers lists the players by pairing number.
	TournamentPlayers(ctx context.Context, id string) ([]TournamentPlayer, error)
	// TournamentRounds lists the rounds paired so far, in order.
	TournamentRounds(ctx context.Context, id string) ([]TournamentRound, error)

	// ClaimTournament makes node the director of tournament id for ttl if
	// nobody holds its lease (or node does already, at the same epoch:
	// then it is a renewal). It returns the epoch to fence writes with;
	// a new claim raises it. ErrConflict when another node's lease is
	// live; ErrDeposed when node renews with an epoch that is not the
	// tournament's any more.
	ClaimTournament(ctx context.Context, id, node string, epoch int64, ttl time.Duration) (int64, error)
	// ReleaseTournament ends node's lease now (a director stopping), if it
	// still holds it at epoch.
	ReleaseTournament(ctx context.Context, id, node string, epoch int64) error
	// UndirectedTournaments lists up to limit upcoming or running
	// tournaments starting before startsBefore whose director's lease has
	// expired (or that never had one), by start time: a tournament far
	// ahead needs no director yet.
	UndirectedTournaments(ctx context.Context, startsBefore time.Time, limit int) ([]string, error)
	// UpdateTournamentFenced writes t's status, rounds, finished time and
	// note while its epoch is still epoch.
	UpdateTournamentFenced(ctx context.Context, epoch int64, t *Tournament) error
	// AddRoundFenced stores round r, which must be the next one
	// (ErrConflict otherwise: it was paired already).
	AddRoundFenced(ctx context.Context, epoch int64, id string, r TournamentRound) error
	// SetBoardResultFenced records the result of a board of round number
	// round. ErrConflict if the board has a result already.
	SetBoardResultFenced(ctx context.Context, epoch int64, id string, round, board int, result string) error
}
