package store

import (
	"context"
	"time"
)

// Token scopes (Token.Scopes, space-separated). A token made before scopes
// existed has ScopeFull, which the column's default gives it.
const (
	// ScopeFull is everything the account may do (the only kind of token
	// before scopes; kept for them).
	ScopeFull = "full"
	// ScopeBotPlay plays: games, moves, challenges, tournaments, the user
	// channel — but never manages the account (tokens, becoming a bot).
	ScopeBotPlay = "bot:play"
	// ScopeRead only reads: GET requests, no socket (the sockets carry
	// moves).
	ScopeRead = "read"
)

// BotAccounts is bot accounts and the scopes and last use of API tokens.
type BotAccounts interface {
	// MakeBot turns a registered user with no games into a bot account,
	// for good. ErrConflict, with nothing written, when the user is a
	// guest, is a bot already, holds a seat in any game (an invitation
	// not yet accepted does not count) or created one; ErrNotFound for no
	// such user.
	MakeBot(ctx context.Context, userID int64) error
	// IsBot reports whether a user is a bot account (false for no such
	// user).
	IsBot(ctx context.Context, userID int64) (bool, error)
	// HasGames reports whether a user holds a seat in a game (invitations
	// aside) or created one: what keeps MakeBot from converting them.
	HasGames(ctx context.Context, userID int64) (bool, error)
	// CreateScopedToken stores t with its Scopes and sets t.ID, unless the
	// user has max tokens already (ErrConflict, nothing written).
	CreateScopedToken(ctx context.Context, t *Token, max int) error
	// ScopedToken finds an API token by hash, with its scopes and last use.
	ScopedToken(ctx context.Context, hash []byte) (Token, error)
	// ScopedTokens lists a user's tokens with scopes and last use, oldest
	// first.
	ScopedTokens(ctx context.Context, userID int64) ([]Token, error)
	// TouchToken records that a token was used at at, unless its last use
	// recorded is later than at minus every: a token used many times a
	// second costs one write per every, whichever node it is used on.
	// It reports whether it wrote.
	TouchToken(ctx context.Context, id int64, at time.Time, every time.Duration) (bool, error)
	// BotLeaderboard is Leaderboard with people and bots apart: the bot
	// accounts' ratings when bots, else the people's.
	BotLeaderboard(ctx context.Context, game string, maxDeviation float64, limit int, bots bool) ([]RatedUser, error)
}
