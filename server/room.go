package server

import (
	"context"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The game room on the game channel (match/room.go has its rules): the
// clients' offers, chat, claims, aborts and rematches become commands to the
// game's owner, and the room's events become the messages of wire/room.go —
// the players' chat for the players alone, the spectators' chat (issue 27:
// match/chat.go; a line said by anyone who holds no seat) for everyone
// else alone.

// audiencePlayers is the message every player of a game gets alike (the
// players' chat), spectators nothing; audienceSpectators the one every
// spectator gets alike (the spectators' chat), players nothing.
const (
	audiencePlayers    = audienceUsers - 1
	audienceSpectators = audienceUsers - 2
)

// maxChatBytes refuses a chat message far beyond any line before it
// reaches the game's owner (which counts characters: match.ChatMaxRunes).
const maxChatBytes = 4 * match.ChatMaxRunes

// handleRoom answers a room message of the game channel; false for a type
// that is not the room's.
func (gc *gameConn) handleRoom(u *store.User, m wire.ClientMessage) bool {
	c := match.Command{User: actor(u), Offer: match.OfferKind(m.Offer), Key: gc.key(m.ID)}
	if m.Type != wire.TypeRematch {
		c.Retry = gc.copy(m.ID)
	}
	switch m.Type {
	case wire.TypeOffer:
		c.Kind = match.CmdOffer
	case wire.TypeAccept:
		c.Kind = match.CmdAccept
	case wire.TypeDecline:
		c.Kind = match.CmdDecline
	case wire.TypeClaim:
		c.Kind = match.CmdClaim
	case wire.TypeAbort:
		c.Kind = match.CmdAbort
	case wire.TypeChat:
		if len(m.Text) > maxChatBytes {
			gc.replyError(m.ID, errf(http.StatusBadRequest, "bad_request", "a chat line is at most %d characters", match.ChatMaxRunes))
			return true
		}
		if err := gc.s.chatAllowed(gc.ctx, u.ID); err != nil {
			gc.replyError(m.ID, err) // a moderator muted this user (moderation.go)
			return true
		}
		c.Kind, c.Text = match.CmdChat, m.Text
	case wire.TypeRematch:
		// The rematch is no command of this game's owner (it makes or
		// joins another game): a copy is recognised here, by its id on
		// this connection, and gets the first answer.
		if a, ok := gc.rematched[m.ID]; ok {
			gc.answer(m.ID, a.ack, a.err)
			return true
		}
		ack, err := gc.s.rematch(gc.ctx, u, gc.id, gc.copy(m.ID))
		// (Not an answer of the moment — unavailable, internal — which a
		// copy may well change.)
		if gc.key(m.ID) != "" && (err == nil || apiErrorOf(err).Status < http.StatusInternalServerError) {
			if gc.rematched == nil || len(gc.rematched) >= sentKept {
				gc.rematched = map[string]rematchAnswer{}
			}
			gc.rematched[m.ID] = rematchAnswer{ack, err}
		}
		gc.answer(m.ID, ack, err)
		return true
	default:
		return false
	}
	ack, err := gc.s.command(gc.ctx, gc.id, c)
	gc.answer(m.ID, ack, err)
	return true
}

// rematchAnswer is the answer a connection gave to a rematch message.
type rematchAnswer struct {
	ack match.Ack
	err error
}

// answer acknowledges the client's message id, or says why it was refused.
func (gc *gameConn) answer(id string, ack match.Ack, err error) {
	if err != nil {
		gc.replyError(id, err)
		return
	}
	gc.reply(wire.Ack{Type: wire.TypeAck, ID: id, Seq: ack.Seq()})
}

// renderRoom turns a room event into this client's message.
func (gc *gameConn) renderRoom(p *published) [][]byte {
	e := &p.Event
	switch {
	case e.Seq > gc.seq:
		return gc.resync() // a write this connection never got
	case e.Room == nil || e.Room.N <= gc.room:
		return nil // in the snapshot the client has
	}
	gc.room = e.Room.N
	switch e.Kind {
	case match.EventChat:
		if e.Chat == nil {
			return nil
		}
		if e.Chat.Seat == match.SpectatorSeat {
			if e.Meta.SeatOf(gc.uid) >= 0 {
				return nil // the players never see the spectators' chat of their game
			}
			if gc.s.blocksUser(gc.ctx, gc.uid, e.Chat.User) {
				return nil // from a user this one blocks (blocks.go)
			}
			return [][]byte{p.message(audienceSpectators, func() []byte {
				return marshal(wire.ChatEvent{Type: wire.TypeChat, Seq: e.Seq, N: e.Room.N, Line: gc.s.chatLine(gc.ctx, *e.Chat)})
			})}
		}
		if e.Meta.SeatOf(gc.uid) < 0 {
			return nil // the players' chat is theirs
		}
		if gc.s.blocksSeat(gc.ctx, gc.uid, &e.Meta, e.Chat.Seat) {
			return nil // from a player this one blocks (blocks.go)
		}
		return [][]byte{p.message(audiencePlayers, func() []byte {
			return marshal(wire.ChatEvent{Type: wire.TypeChat, Seq: e.Seq, N: e.Room.N, Line: wireLine(*e.Chat)})
		})}
	case match.EventOffer:
		if e.Note == nil {
			return nil
		}
		return [][]byte{p.message(audienceAll, func() []byte {
			return marshal(wire.OfferEvent{Type: wire.TypeOffer, Seq: e.Seq, N: e.Room.N,
				Note: wireNote(*e.Note), Offers: wireOffers(e.Room.Offers)})
		})}
	case match.EventPresence:
		return [][]byte{p.message(audienceAll, func() []byte {
			return marshal(wire.PresenceEvent{Type: wire.TypePresence, Seq: e.Seq, N: e.Room.N,
				Away: wireAways(e.Room.Away, gc.s.now()), GraceMs: gc.s.claimGrace().Milliseconds()})
		})}
	}
	return nil
}

// renderRematch turns an event of the rematch of this finished game into
// a rematch message (offered, accepted, declined or withdrawn).
func (gc *gameConn) renderRematch(p *published) [][]byte {
	e := &p.Event
	switch e.Kind {
	case match.EventCreated, match.EventLobby, match.EventStart, match.EventEnd:
	default:
		return nil
	}
	if e.Seq <= gc.rematchSeq {
		return nil
	}
	gc.rematchSeq = e.Seq
	return [][]byte{p.message(audienceAll-1, func() []byte {
		return marshal(wire.RematchEvent{Type: wire.TypeRematch, Seq: e.Seq, Game: gc.s.summary(gc.ctx, &e.Meta, e.Names)})
	})}
}

// takebackMessage is moves taken back, as seat sees the game then.
func takebackMessage(e *match.Event, seat int) wire.TakebackEvent {
	msg := wire.TakebackEvent{Type: wire.TypeTakeback, Seq: e.Seq, Ply: e.Meta.Ply, ToMove: e.Meta.ToMove,
		View: e.View(seat), Clocks: wireClocks(e.Clocks), Deadline: timePtr(e.Meta.Deadline)}
	if seat >= 0 && seat == e.Meta.ToMove {
		msg.Legal = e.Legal
	}
	return msg
}

// roomMessage is the room of snap as user uid may see it: from the owner
// here, or (a game owned by another node) asked of it; nil when the game
// has no room (it is over) or its owner cannot say.
func (s *Server) roomMessage(ctx context.Context, snap *match.Snapshot, uid int64) *wire.Room {
	m := &snap.Meta
	if m.Status != match.Open && m.Status != match.Live {
		return nil
	}
	r := snap.Room
	if r == nil {
		if s.cfg.Cluster == nil {
			return nil
		}
		ack, err := s.tell(ctx, m.ID, match.Command{Kind: match.CmdRoom, User: match.User{ID: uid}})
		if err != nil || ack.Room == nil {
			return nil
		}
		r = ack.Room
	}
	out := &wire.Room{N: r.N, Offers: wireOffers(r.Offers), Away: wireAways(r.Away, s.now()), GraceMs: s.claimGrace().Milliseconds()}
	if m.SeatOf(uid) >= 0 {
		blocked := s.blockedSeats(ctx, uid, m)
		for _, l := range r.Chat {
			if l.Seat < 0 || l.Seat < len(blocked) && blocked[l.Seat] {
				continue // the spectators', or from a player uid blocks (blocks.go)
			}
			out.Chat = append(out.Chat, wireLine(l))
		}
		return out
	}
	for _, l := range r.Chat {
		if l.Seat != match.SpectatorSeat || s.blocksUser(ctx, uid, l.User) {
			continue // the players', or from a user uid blocks
		}
		out.Chat = append(out.Chat, s.chatLine(ctx, l))
	}
	return out
}

// chatLine is a line of chat on the wire; a spectator's names who said it
// (a player's line has the seat for that).
func (s *Server) chatLine(ctx context.Context, l match.ChatLine) wire.ChatLine {
	w := wireLine(l)
	if l.Seat == match.SpectatorSeat {
		w.User = s.userName(ctx, l.User)
	}
	return w
}

// blocksUser reports whether uid blocks user other (blocks.go); a store
// that cannot answer hides nothing (logged, the chat goes on).
func (s *Server) blocksUser(ctx context.Context, uid, other int64) bool {
	bs, ok := s.store.(store.Blocks)
	if !ok || uid == 0 || other == 0 || uid == other {
		return false
	}
	b, err := bs.Blocked(ctx, uid, other)
	if err != nil {
		s.log.Error("blocked user", "user", uid, "other", other, "err", err)
		return false
	}
	return b
}

// gameSnapshot is the game channel's snapshot, and GET /api/games/{id}'s
// answer: the game as uid may see it, with its room, or its rematch and
// the rematch's event number that the snapshot stands at (its events up to
// it are in the summary: the rematch's own numbers, not the game's).
func (s *Server) gameSnapshot(ctx context.Context, snap *match.Snapshot, uid int64) (wire.Snapshot, int64) {
	msg := s.snapshotMessage(ctx, snap, uid)
	msg.Room = s.roomMessage(ctx, snap, uid)
	var rseq int64
	msg.Rematch, rseq = s.rematchSummary(ctx, &snap.Meta)
	return msg, rseq
}

// claimGrace is how long a player must be away before the others claim.
func (s *Server) claimGrace() time.Duration {
	if s.cfg.ClaimGrace > 0 {
		return s.cfg.ClaimGrace
	}
	return match.DefaultClaimGrace
}
