package server

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// The defaults of the limits on each user's games (docs/security.md).
const (
	DefaultBotOnlyDelay   = 500 * time.Millisecond
	DefaultOpenGameExpiry = time.Hour
	DefaultIdleGameExpiry = 3 * 24 * time.Hour
	// botRest: a game whose person has not moved for this long lets go
	// of its bots' search trees.
	botRest = 5 * time.Minute
)

// quotas is q counting a user's games in the store, so that in a cluster
// every node's games count.
func (s *Server) quotas(q match.Quotas) match.Quotas {
	q.Games = func(ctx context.Context, creator int64) ([]match.Meta, error) {
		return s.store.Games(ctx, store.GameFilter{Creator: creator, Statuses: []match.Status{match.Open, match.Live}, Limit: 1000})
	}
	return q
}
