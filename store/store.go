// Package store is the server's persistence: users, sessions, API tokens,
// games with their seats and moves, and ratings. The interface is what the
// server needs and nothing more; store/sqlite (the embedded default) and
// store/postgres implement it, and store/storetest is the conformance suite
// both pass.
//
// The store knows nothing about any particular game: positions, views and
// legality belong to the game packages. It guarantees the one thing the
// server cannot: that a move, once AppendMove returns nil, is on disk, and
// that two writers can never both record move N of a game.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors returned by every implementation (wrapped with context).
var (
	// ErrNotFound: no such user, session, token or game.
	ErrNotFound = errors.New("not found")
	// ErrConflict: a unique name is taken, a move's ply is not the next
	// one, a game is not in the status the write expects, or an optimistic
	// version check failed. Nothing was written.
	ErrConflict = errors.New("conflict")
)

// User is an account: a guest (no password) or a registered user.
type User struct {
	ID           int64
	Name         string // unique ignoring case
	Guest        bool
	PasswordHash string // empty for guests
	Created      time.Time
}

// Session is a login. Only the SHA-256 of the secret is stored.
type Session struct {
	Hash    []byte
	UserID  int64
	Created time.Time
	Expires time.Time
}

// Token is a personal API token for bots. Only its SHA-256 is stored.
type Token struct {
	ID      int64
	UserID  int64
	Name    string
	Hash    []byte
	Created time.Time
}

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

// Seat kinds.
const (
	SeatOpen   = "open"   // anyone may join
	SeatInvite = "invite" // only UserID may join
	SeatHuman  = "human"  // taken by UserID
	SeatBot    = "bot"    // a server-side bot at Level
	// SeatImported is a seat of an imported record: nobody plays it.
	SeatImported = "imported"
)

// Seat is one seat of a game.
type Seat struct {
	Kind   string
	UserID int64  // human and invite seats
	Level  string // bot seats
}

// Clock kinds.
const (
	ClockNone           = "none"
	ClockRealtime       = "realtime"
	ClockCorrespondence = "correspondence"
)

// Clock is a game's time control.
type Clock struct {
	Kind        string
	InitialMs   int64 // realtime: each seat's starting time
	IncrementMs int64 // realtime: added after each of the seat's moves
	Days        int   // correspondence: time per decision
}

// Result is how a game ended.
type Result struct {
	Status  string // "won" or "drawn"
	Winners []int
	Reason  string // "normal", "resign", "timeout"
	Scores  []int  // for games with scores; nil otherwise
}

// Game is a game's metadata. Its moves are stored separately, one row each.
type Game struct {
	ID      string
	Game    string            // the registry name: "sgolte", …
	Options map[string]string // every option, defaults filled in
	// Seed decides every chance event of the game. It is secret while the
	// game is on (it would reveal Skyjo's deck).
	Seed uint64
	// StartPosition, when set, is the position JSON the game starts from
	// instead of the game's initial position for (Options, Seed).
	StartPosition []byte
	Status        Status
	Seats         []Seat
	Clock         Clock
	Rated         bool
	CreatorID     int64
	Created       time.Time
	Started       time.Time // zero until live
	Finished      time.Time // zero until finished or aborted
	Result        *Result
	// Ply is the number of moves played; ToMove the seat to move (-1 when
	// nobody is); Deadline when that seat loses on time (zero: never).
	// AppendMove maintains them.
	Ply      int
	ToMove   int
	Deadline time.Time
	// Version increases with every write of the game row; UpdateGame
	// succeeds only if it still holds the version it read.
	Version int64
}

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

// Turn is what changes in the game row with a move: who is to move next and
// by when.
type Turn struct {
	ToMove   int
	Deadline time.Time
}

// Rating is one user's Glicko-2 rating in one game.
type Rating struct {
	UserID     int64
	Game       string
	Rating     float64
	Deviation  float64
	Volatility float64
	Games      int
	Updated    time.Time
}

// RatedUser is a leaderboard row.
type RatedUser struct {
	Rating
	Name string
}

// End finishes a game.
type End struct {
	Result   Result
	Finished time.Time
	// Rate, if set, is called inside the finishing transaction with the
	// current ratings in Result's game of RatedUsers (a user without a
	// rating yet has Games == 0 and zero values) and returns the ratings to
	// store. Doing it inside the transaction means two games ending at once
	// can never lose one of their updates.
	RatedUsers []int64
	Rate       func(current []Rating) []Rating
}

// GameFilter selects games for listings.
type GameFilter struct {
	Statuses []Status // empty: any
	Game     string   // empty: any
	UserID   int64    // 0: any; else games in which the user holds or is invited to a seat
	ToMove   bool     // with UserID: only games in which that user is to move
	Before   time.Time
	Limit    int // 0: 50
}

// Store is the persistence interface. Every method takes a context and is
// safe for concurrent use.
type Store interface {
	// CreateUser stores u and sets u.ID. ErrConflict if the name is taken.
	CreateUser(ctx context.Context, u *User) error
	// User returns the user with the given id.
	User(ctx context.Context, id int64) (User, error)
	// UserByName finds a user by name, ignoring case.
	UserByName(ctx context.Context, name string) (User, error)
	// UpdateUser rewrites a user's name, guest flag and password hash
	// (a guest registering). ErrConflict if the new name is taken.
	UpdateUser(ctx context.Context, u User) error

	// CreateSession stores a session.
	CreateSession(ctx context.Context, s Session) error
	// Session returns the unexpired session with the given hash.
	Session(ctx context.Context, hash []byte, now time.Time) (Session, error)
	// DeleteSession ends a session; deleting a missing one is not an error.
	DeleteSession(ctx context.Context, hash []byte) error
	// DeleteExpiredSessions removes the sessions expired at now and says
	// how many there were.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)

	// CreateToken stores t and sets t.ID.
	CreateToken(ctx context.Context, t *Token) error
	// TokenByHash finds an API token.
	TokenByHash(ctx context.Context, hash []byte) (Token, error)
	// Tokens lists a user's tokens, oldest first.
	Tokens(ctx context.Context, userID int64) ([]Token, error)
	// DeleteToken deletes one of the user's tokens (ErrNotFound if the user
	// has no token with that id).
	DeleteToken(ctx context.Context, userID, id int64) error

	// CreateGame stores a new game with Version 1. ErrConflict if the id is
	// taken.
	CreateGame(ctx context.Context, g *Game) error
	// Game returns a game's metadata.
	Game(ctx context.Context, id string) (Game, error)
	// UpdateGame rewrites the lobby part of a game (status, seats, started,
	// finished) if its Version is still g.Version, and increments
	// g.Version. ErrConflict otherwise, or if the stored game is finished.
	UpdateGame(ctx context.Context, g *Game) error
	// Games lists games, newest first.
	Games(ctx context.Context, f GameFilter) ([]Game, error)

	// AppendMove commits move m of a live game: m.Ply must equal the
	// number of moves already stored (ErrConflict otherwise — a stale or
	// duplicated move, or a second writer). turn updates who is to move.
	// If end is non-nil the game finishes in the same transaction. When it
	// returns nil, the move is durable.
	AppendMove(ctx context.Context, gameID string, m Move, turn Turn, end *End) error
	// EndGame finishes a live game without a move (resignation, time).
	// ErrConflict if the game is not live.
	EndGame(ctx context.Context, gameID string, end End) error
	// Moves returns a game's moves in ply order.
	Moves(ctx context.Context, gameID string) ([]Move, error)
	// ImportGame stores a complete imported game with its moves in one
	// transaction.
	ImportGame(ctx context.Context, g *Game, moves []Move) error

	// Ratings returns a user's ratings, one per game played rated.
	Ratings(ctx context.Context, userID int64) ([]Rating, error)
	// Leaderboard returns the best ratings of a game whose deviation is
	// at most maxDeviation, highest first.
	Leaderboard(ctx context.Context, game string, maxDeviation float64, limit int) ([]RatedUser, error)

	// Ping checks that the store answers.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}
