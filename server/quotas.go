package server

import (
	"context"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/account"
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

// creationHold is how long a server holds a user's creations on the whole
// site once it has counted their games: long enough for the game it is
// making to be stored.
const creationHold = 2 * time.Second

// quotas is q counting a user's games in the store, so that in a cluster
// every node's games count. The count and the creation that follows are
// one step on the whole site: the match package serialises them per user
// on this node, and a hold kept in the store (the limit "create:ID")
// makes the other nodes sharing the store wait — two nodes counting at
// once would each let a game through with one place left.
func (s *Server) quotas(q match.Quotas) match.Quotas {
	holder, _ := account.NewSecret("") // this server, as the holder of creation holds
	q.Games = func(ctx context.Context, creator int64) ([]match.Meta, error) {
		if err := s.holdCreations(ctx, creator, holder); err != nil {
			return nil, err
		}
		return s.store.Games(ctx, store.GameFilter{Creator: creator, Statuses: []match.Status{match.Open, match.Live}, Limit: 1000})
	}
	return q
}

// holdCreations takes user uid's creation hold for holder, waiting while
// another server holds it. A hold ends creationHold after it was taken
// (the server that took it does not say when its game is stored); after
// waiting that long by this machine's clock the hold is taken anyway, so a
// server whose clock stands still, or is far behind, delays others by no
// more.
func (s *Server) holdCreations(ctx context.Context, uid int64, holder string) error {
	name := fmt.Sprint("create:", uid)
	deadline := time.Now().Add(creationHold)
	for {
		now := s.now()
		force := !time.Now().Before(deadline)
		held := false
		_, err := s.store.UpdateLimit(ctx, name, now, func(l store.Limit) store.Limit {
			if !force && l.Holder != "" && l.Holder != holder && now.Before(l.Until) {
				held = true
				return l
			}
			until := now.Add(creationHold)
			return store.Limit{Holder: holder, At: now, Until: until, Expires: until}
		})
		if err != nil || !held {
			return err
		}
		t := time.NewTimer(25 * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}
