// Package store is the server's persistence: users, sessions, API tokens,
// games with their seats and moves, and ratings. store/sqlite (the embedded
// default) and store/postgres implement it, and store/storetest is the
// conformance suite both pass.
//
// The store saves the match package's types without owning their rules,
// and knows nothing about any particular game: positions, views and
// legality belong to the game packages. It guarantees the one thing the
// server cannot: that a move, once AppendMove returns nil, is on disk, and
// that two writers can never both record move N of a game.
//
// Its interface comes in the few pieces its users need: Users (accounts,
// sessions, tokens), Games (games and their moves, including the
// match.Journal a game's owner writes through), Ratings and Limits (the
// site's limits, shared by every node); Store is all of them.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/tabula-games/tabula/match"
)

// Errors returned by every implementation (wrapped with context).
var (
	// ErrNotFound: no such user, session, token or game.
	ErrNotFound = errors.New("not found")
	// ErrConflict: a unique name is taken, a move's ply is not the next
	// one, a game is not in the status the write expects, or an optimistic
	// version check failed. Nothing was written. It is match.ErrConflict,
	// so the owner of a game recognises it.
	ErrConflict = match.ErrConflict
	// ErrLeftLadder: a ladder game's bot account is not an active entrant
	// of the ladder any more. Nothing was written.
	ErrLeftLadder = errors.New("not on the ladder")
)

// Store is the whole persistence interface. Every method takes a context
// and is safe for concurrent use.
type Store interface {
	Users
	Games
	Ratings
	Limits
	// Ping checks that the store answers.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error
}

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
	// Scopes and LastUsed (zero: never) are read by BotAccounts
	// (store/bots.go); Users' own methods leave them empty.
	Scopes   string
	LastUsed time.Time
}

// Users is accounts and the credentials that sign them in.
type Users interface {
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
}

// GameFilter selects games for listings.
type GameFilter struct {
	Statuses []match.Status // empty: any
	Game     string         // empty: any
	UserID   int64          // 0: any; else games in which the user holds or is invited to a seat
	ToMove   bool           // with UserID: only games in which that user is to move
	Creator  int64          // 0: any; else games that user created
	Before   time.Time
	Limit    int // 0: 50
}

// Games is games with their seats and moves.
type Games interface {
	// Journal is what a game's owner writes through: CreateGame,
	// UpdateGame, AppendMove, EndGame, TakeBack, Moves.
	match.Journal
	// ImportGame stores a complete imported game with its moves in one
	// transaction, with Version 1.
	ImportGame(ctx context.Context, m *match.Meta, moves []match.Move) error
	// Game returns a game's metadata.
	Game(ctx context.Context, id string) (match.Meta, error)
	// Games lists games, newest first.
	Games(ctx context.Context, f GameFilter) ([]match.Meta, error)
}

// RatedUser is a leaderboard row.
type RatedUser struct {
	match.Rating
	Name string
}

// Ratings is the users' ratings, which finishing a rated game updates
// (match.End).
type Ratings interface {
	// Ratings returns a user's ratings, one per game played rated.
	Ratings(ctx context.Context, userID int64) ([]match.Rating, error)
	// Leaderboard returns the best ratings of a game whose deviation is
	// at most maxDeviation, highest first.
	Leaderboard(ctx context.Context, game string, maxDeviation float64, limit int) ([]RatedUser, error)
}
