package server

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/match"
)

// ratingCache keeps users' ratings for the names in game summaries (the
// lobby shows each player's rating in the game beside their name). An
// entry lives ratingTTL, and a rated game's end forgets its players' on
// every node (the owner's says so on the bus: forgetUsers).
type ratingCache struct {
	*account.Cache[int64, []match.Rating]
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
	rs, ok := s.ratings.Get(uid, now)
	if !ok {
		var err error
		if rs, err = s.store.Ratings(ctx, uid); err != nil {
			return nil, false
		}
		s.ratings.Put(uid, rs, now.Add(ratingTTL), now)
	}
	for _, r := range rs {
		if r.Game == game && r.Games > 0 {
			v := int(math.Round(r.Rating))
			return &v, r.Deviation > maxLeaderboardDeviation
		}
	}
	return nil, false
}

// seatUsers is the users holding seats (no bots, each once).
func seatUsers(seats []match.Seat) []int64 {
	var ids []int64
	for _, se := range seats {
		if se.UserID != 0 && !slices.Contains(ids, se.UserID) {
			ids = append(ids, se.UserID)
		}
	}
	return ids
}
