package server

import (
	"context"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// userConn is one client of the user channel, the bot API: a move request
// whenever it is the user's turn in any game, answered on the same
// connection, and the starts, ends and invitations of the user's games.
type userConn struct {
	*wsConn
	uid int64
}

// handleUserWS is the user channel, GET /api/ws.
func (s *Server) handleUserWS(w http.ResponseWriter, r *http.Request) {
	u, err := s.signedIn(r)
	if err != nil {
		writeError(w, err)
		return
	}
	s.wg.Add(1)
	defer s.wg.Done()
	uc := &userConn{wsConn: s.newWSConn(), uid: u.ID}
	defer uc.release()
	s.presence.socket(u.ID, 1)
	defer s.presence.socket(u.ID, -1)
	// Registered before the handshake completes: a client may act (create
	// a game that invites it, say) the moment its dial returns.
	defer s.hub.watchUser(u.ID, uc.sub)()
	defer s.trackConn(u.ID, uc.wsConn)() // notices from other nodes (usernotice.go), the account's closure
	if !uc.upgrade(w, r) {
		return
	}
	if hook := testHookUserUpgraded.Load(); hook != nil {
		(*hook)()
	}
	// Registered first, then what is waiting for this user — turns to
	// play, then invitations still open: one that arrives in between is
	// sent twice rather than never.
	go s.sendWaiting(uc)
	uc.serve(func() { uc.readLoop(func(m wire.ClientMessage) { uc.handle(u, m) }) }, uc.render)
}

// render turns an event of one of the user's games into the messages for
// this client.
func (uc *userConn) render(p *published) [][]byte {
	e := &p.Event
	var out [][]byte
	summary := func() []byte {
		return p.message(audienceAll, func() []byte { return marshal(uc.s.gameEvent(uc.ctx, e)) })
	}
	switch e.Kind {
	case match.EventCreated:
		if e.Meta.Invites(uc.uid) {
			out = append(out, summary())
		}
	case match.EventStart:
		if e.Meta.SeatOf(uc.uid) >= 0 {
			out = append(out, summary())
		}
	case match.EventEnd:
		if e.Meta.Status == match.Finished && e.Meta.SeatOf(uc.uid) >= 0 {
			out = append(out, summary())
		}
	}
	if e.Prompt != nil && e.Prompt.UserID == uc.uid {
		out = append(out, marshal(uc.s.promptMessage(e.Game, e.Seq, e.Prompt)))
	}
	if n := uc.s.challengeNews(uc.ctx, e, uc.uid); n != nil {
		out = append(out, marshal(n)) // challenges.go
	}
	return out
}

// handle answers a client's message: only moves, for the game named by id.
func (uc *userConn) handle(u *store.User, m wire.ClientMessage) {
	if m.Type != wire.TypeMove {
		uc.replyError(m.ID, errf(http.StatusBadRequest, "bad_request", "unknown message type %q", m.Type))
		return
	}
	if m.ID == "" {
		uc.replyError(m.ID, errf(http.StatusBadRequest, "bad_request", "id (the game) is required"))
		return
	}
	ack, err := uc.s.move(uc.ctx, u, m.ID, m.MoveRequest, "", false)
	if err != nil {
		uc.replyError(m.ID, err)
		return
	}
	uc.reply(wire.Ack{Type: wire.TypeAck, ID: m.ID, Ply: &ack.Move.Ply, Seq: ack.Seq()})
}

// sendWaiting sends a user channel that has just connected a move request
// for every game in which its user is to move and an invite for every open
// game that still holds a seat for them, so a bot that was away misses
// nothing.
func (s *Server) sendWaiting(uc *userConn) {
	s.snapshotsOf(uc.ctx, store.GameFilter{Statuses: []match.Status{match.Live}, UserID: uc.uid, ToMove: true, Limit: 200}, func(snap *match.Snapshot) {
		if p, err := snap.Prompt(); err == nil && p != nil && p.UserID == uc.uid {
			uc.reply(s.promptMessage(snap.Meta.ID, snap.Seq(), p))
		}
	})
	s.snapshotsOf(uc.ctx, store.GameFilter{Statuses: []match.Status{match.Open}, UserID: uc.uid, Limit: 200}, func(snap *match.Snapshot) {
		if snap.Meta.Status == match.Open && snap.Meta.Invites(uc.uid) {
			if s.notFromBlocked(uc.ctx, uc.uid, &snap.Meta) != nil {
				return // from a player the user blocks, still open: not shown, as GET /api/challenges and the inbox
			}
			uc.reply(s.gameEventOf(uc.ctx, wire.TypeInvite, snap.Seq(), &snap.Meta, match.SeatNames(snap.State)))
			if n := s.challengeNews(uc.ctx, &match.Event{Kind: match.EventCreated, Meta: snap.Meta, Names: match.SeatNames(snap.State)}, uc.uid); n != nil {
				uc.reply(n) // a challenge still waiting for the answer
			}
		}
	})
}

// snapshotsOf calls fn with the snapshot of every stored game that f
// selects: what its owner holds now if it has one here, else the store's
// (a game owned by another node of a cluster).
func (s *Server) snapshotsOf(ctx context.Context, f store.GameFilter, fn func(snap *match.Snapshot)) {
	games, err := s.store.Games(ctx, f)
	if err != nil {
		return
	}
	for _, g := range games {
		if s.games.Get(g.ID) == nil && s.cfg.Cluster == nil {
			continue // one node owns every open and live game: this one ended
		}
		if snap, err := s.snapshot(ctx, g.ID); err == nil {
			fn(snap)
		}
	}
}
