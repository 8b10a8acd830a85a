package server

import (
	"context"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// liveGames is where the fair-play rule (match.NotOwnLivePosition) finds a
// user's live games: the store lists them, and each is read as it stands
// now, from its owner here or from the store.
type liveGames struct{ s *Server }

// LiveGamesOf is the live games of gameName with a seat of userID's (at
// most 50, the most a user plays at once by far).
func (l liveGames) LiveGamesOf(ctx context.Context, userID int64, gameName string) ([]*match.Snapshot, error) {
	metas, err := l.s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Live}, UserID: userID, Game: gameName, Limit: 50})
	if err != nil {
		return nil, err
	}
	var snaps []*match.Snapshot
	for _, m := range metas {
		if m.SeatOf(userID) < 0 {
			continue
		}
		snap, err := l.s.snapshot(ctx, m.ID)
		if err != nil {
			return nil, err
		}
		snaps = append(snaps, snap)
	}
	return snaps, nil
}
