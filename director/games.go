package director

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// seatGame creates the game gameID of board board of round round, with
// options opts and one invited seat for each of users in order, if it does
// not exist yet, and seats its players while it is open. It returns the
// game as it stands (Open just after its creation).
func (d *Director) seatGame(ctx context.Context, t *store.Tournament, round, board int, gameID string, opts map[string]string, users []int64) (match.Meta, error) {
	m, err := d.cfg.Store.Game(ctx, gameID)
	// Creating and seating a game is finished even when the director is
	// stopping: a creation cancelled half-way may have stored the game
	// without starting its owner here, and nobody could seat its players.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if errors.Is(err, store.ErrNotFound) {
		m = match.Meta{ID: gameID, Game: t.Game, Options: maps.Clone(opts), Clock: t.Clock, Rated: t.Rated, Created: d.cfg.Now()}
		// Built-in bots take bot seats, played by the game's owner node
		// (tournamentbots.go).
		levels, err := d.botLevels(ctx, t.ID, users)
		if err != nil {
			return m, err
		}
		for _, uid := range users {
			if lv, ok := levels[uid]; ok {
				m.Seats = append(m.Seats, match.Seat{Kind: match.SeatBot, Level: lv})
				continue
			}
			m.Seats = append(m.Seats, match.Seat{Kind: match.SeatInvite, UserID: uid})
		}
		// The tournament, not a user, creates its games: creator 0.
		_, err = d.cfg.Games.Create(ctx, match.User{}, m)
		var me *match.Error
		if err != nil && !(errors.As(err, &me) && me.Code == match.CodeConflict) {
			return m, fmt.Errorf("create the game of round %d board %d: %w", round, board, err)
		}
		d.cfg.Log.Info("tournament game created", "tournament", t.ID, "round", round, "board", board, "game", gameID)
		m.Status = match.Open
	} else if err != nil {
		return m, err
	}
	if m.Status != match.Open {
		return m, nil
	}
	for seat, uid := range users {
		if uid < 0 || (len(m.Seats) == len(users) && m.Seats[seat].Kind == match.SeatHuman) { // a bot's seat is taken
			continue
		}
		_, err := d.cfg.Games.Do(ctx, gameID, match.Command{Kind: match.CmdJoin, User: match.User{ID: uid}, Seat: seat, Ply: -1, Retry: true})
		var me *match.Error
		if err != nil && !errors.As(err, &me) {
			return m, fmt.Errorf("seat user %d in game %s: %w", uid, gameID, err)
		}
	}
	return m, nil
}
