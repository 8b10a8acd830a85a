package server

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/tabula-games/tabula/match"
)

// ratingCache keeps users' ratings for the names in game summaries (the
// lobby shows each player's rating in the game beside their name). An
// entry lives ratingTTL, and a rated game's end forgets its players' (the
// hub sees it, on every node of a cluster).
type ratingCache struct {
	mu sync.Mutex
	m  map[int64]cachedRatings
}

type cachedRatings struct {
	at      time.Time
	ratings []match.Rating
}

const (
	ratingTTL       = time.Minute
	maxCachedRaters = 10000
)

// ratingOf is user uid's rating in game, rounded, and whether it is
// provisional (its deviation above the leaderboard's limit); nil when the
// user has none.
func (s *Server) ratingOf(ctx context.Context, uid int64, game string) (*int, bool) {
	if uid == 0 {
		return nil, false
	}
	now := s.now()
	c := &s.ratings
	c.mu.Lock()
	e, ok := c.m[uid]
	c.mu.Unlock()
	if !ok || now.Sub(e.at) > ratingTTL {
		rs, err := s.store.Ratings(ctx, uid)
		if err != nil {
			return nil, false
		}
		e = cachedRatings{at: now, ratings: rs}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= maxCachedRaters {
			c.m = map[int64]cachedRatings{}
		}
		c.m[uid] = e
		c.mu.Unlock()
	}
	for _, r := range e.ratings {
		if r.Game == game && r.Games > 0 {
			v := int(math.Round(r.Rating))
			return &v, r.Deviation > maxLeaderboardDeviation
		}
	}
	return nil, false
}

// forget drops the cached ratings of the players of a rated game
// that has ended.
func (c *ratingCache) forget(m *match.Meta) {
	if !m.Rated || m.Status != match.Finished {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, se := range m.Seats {
		delete(c.m, se.UserID)
	}
}
