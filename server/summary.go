package server

import (
	"context"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// summary describes a game; names are the seats' names as the game's
// notation has them now (nil: as at the start, good enough for listings).
func (s *Server) summary(ctx context.Context, m *match.Meta, names []string) wire.Summary {
	title := m.Game
	if g, err := game.Lookup(m.Game); err == nil {
		title = g.Title()
	}
	var start *wire.Start
	if names == nil || len(m.StartPosition) > 0 {
		if st, err := match.InitialState(m); err == nil {
			if names == nil {
				names = match.SeatNames(st)
			}
			if len(m.StartPosition) > 0 {
				// What a spectator sees: never the hidden cards.
				v, _ := game.View(st, game.Spectator)
				from := m.Origin
				if from == match.OriginServer {
					from = match.OriginPosition // a game stored before origins were
				}
				start = &wire.Start{From: wire.Origin(from), KeepDeal: m.KeepDeal, View: v}
			}
		}
	}
	seats := make([]wire.Seat, len(m.Seats))
	for i, se := range m.Seats {
		seats[i] = wire.Seat{Seat: i, Kind: wire.SeatKind(se.Kind), Level: se.Level, User: s.userName(ctx, se.UserID), Bot: s.seatIsBot(ctx, se)}
		if se.Kind == match.SeatHuman || se.Kind == match.SeatInvite {
			seats[i].Rating, seats[i].Provisional = s.ratingOf(ctx, se.UserID, m.Game)
		}
		if i < len(names) {
			seats[i].Name = names[i]
		}
	}
	sum := wire.Summary{
		ID: m.ID, Game: m.Game, Title: title, Options: m.Options, Status: wire.Status(m.Status), Seats: seats,
		Clock: wireTimeControl(m.Clock), Rated: m.Rated, Creator: s.userName(ctx, m.CreatorID),
		Created: m.Created.UTC(), Started: timePtr(m.Started), Finished: timePtr(m.Finished),
		Ply: m.Ply, ToMove: -1, Start: start,
	}
	if m.Status == match.Live {
		sum.ToMove, sum.Deadline = m.ToMove, timePtr(m.Deadline)
	}
	sum.Result = wireResult(m.Result)
	if m.Rated && m.Status == match.Finished {
		s.addRatingChanges(ctx, m, seats)
	}
	return sum
}
