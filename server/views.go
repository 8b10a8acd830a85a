package server

import (
	"context"
	"encoding/json"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// This file is the only place that decides what of a game leaves the
// server. A client sees a position only as its seat's view (game.View),
// in the one snapshot builder below or as the view its seat gets in a move
// event (which the game's owner made with game.View); the full position
// (positionOf) and the chance outcomes (chanceOf) are released only for
// finished games or games without hidden information.

// snapshotMessage is the game as user uid (0: nobody signed in) may see
// it. The game channel sends it, GET /api/games/{id} answers with it, and
// the replay is built on it.
func (s *Server) snapshotMessage(ctx context.Context, snap *match.Snapshot, uid int64) wire.Snapshot {
	seat := snap.Meta.SeatOf(uid)
	v, err := game.View(snap.State, seat)
	if err != nil {
		s.log.Error("view", "game", snap.Meta.ID, "err", err)
	}
	var legal []string
	if snap.Meta.Status == match.Live && seat >= 0 && seat == snap.State.ToMove() {
		legal = game.LegalTexts(snap.State)
	}
	return s.snapshotOf(ctx, &snap.Meta, match.SeatNames(snap.State), snap.Moves, seat, v, legal, snap.Clocks)
}

// startMessage is the game as seat sees it at its start, from the start's
// event: what every seat sees changes then, so every client of the game
// channel gets a snapshot.
func (s *Server) startMessage(ctx context.Context, e *match.Event, seat int) wire.Snapshot {
	var legal []string
	if seat >= 0 && seat == e.Meta.ToMove {
		legal = e.Legal
	}
	return s.snapshotOf(ctx, &e.Meta, e.Names, nil, seat, e.View(seat), legal, e.Clocks)
}

// snapshotOf is the one snapshot builder, for a seat that sees view and
// may play legal.
func (s *Server) snapshotOf(ctx context.Context, m *match.Meta, names []string, moves []match.Move, seat int,
	view json.RawMessage, legal []string, clocks []match.ClockState) wire.Snapshot {
	return wire.Snapshot{Type: wire.TypeSnapshot, Seq: m.Version, Game: s.summary(ctx, m, names), Seat: seat,
		Moves: wireMoves(moves), View: view, Legal: legal, Clocks: wireClocks(clocks)}
}

// moveMessage is a committed move as seat sees it.
func moveMessage(e *match.Event, seat int) wire.MoveEvent {
	msg := wire.MoveEvent{
		Type: wire.TypeMove, Seq: e.Seq, Ply: e.Move.Ply, Seat: e.Move.Seat, Move: e.Move.Text, At: e.Move.At.UTC(),
		ToMove: e.Meta.ToMove, View: e.View(seat), Clocks: wireClocks(e.Clocks), Deadline: timePtr(e.Meta.Deadline),
	}
	if seat >= 0 && seat == e.Meta.ToMove {
		msg.Legal = e.Legal
	}
	return msg
}

// eventTypes is the message each kind of event is told by when the
// game's summary says it all.
var eventTypes = map[match.EventKind]string{
	match.EventCreated: wire.TypeInvite,
	match.EventLobby:   wire.TypeLobby,
	match.EventStart:   wire.TypeStart,
	match.EventEnd:     wire.TypeEnd,
}

// gameEvent is an event told by the game's summary.
func (s *Server) gameEvent(ctx context.Context, e *match.Event) wire.GameEvent {
	return s.gameEventOf(ctx, eventTypes[e.Kind], e.Seq, &e.Meta, e.Names)
}

func (s *Server) gameEventOf(ctx context.Context, typ string, seq int64, m *match.Meta, names []string) wire.GameEvent {
	return wire.GameEvent{Type: typ, Seq: seq, Game: s.summary(ctx, m, names)}
}

// promptMessage is "your turn" on the user channel, with the time left.
func (s *Server) promptMessage(gameID string, seq int64, p *match.Prompt) wire.Prompt {
	msg := wire.Prompt{BotRequest: wireBotRequest(p.Request), ID: gameID, Ply: p.Ply, Seq: seq}
	if !p.Deadline.IsZero() {
		msg.TimeMs = max(p.Deadline.Sub(s.now()).Milliseconds(), 1)
	}
	return msg
}

// positionOf is the full position: only for finished games or games
// without hidden information.
func positionOf(st game.State, m *match.Meta) json.RawMessage {
	if game.Hidden(st) && !m.Status.Over() {
		return nil
	}
	b, err := st.MarshalPosition()
	if err != nil {
		return nil
	}
	return b
}

// chanceOf returns the game's record of chance outcomes if it keeps one.
func chanceOf(st game.State) json.RawMessage {
	c, ok := st.(game.ChanceRecorder)
	if !ok {
		return nil
	}
	b, err := c.ChanceJSON()
	if err != nil {
		return nil
	}
	return b
}
