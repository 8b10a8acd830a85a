package server

import (
	"errors"
	"net/http"
	"slices"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// gameConn is one client of the game channel: a snapshot, then every change
// of one game as its seat may see it; players may send moves on it.
type gameConn struct {
	*wsConn
	id   string
	uid  int64
	seq  int64 // the event number the client stands at
	room int64 // the room event number the client stands at
	// rematchSeq is the event number of the game's rematch the client
	// stands at (rematch.go).
	rematchSeq int64
	// seated: the user holds a seat, and this page counts as theirs in the
	// node's presence (presence.go).
	seated bool
	// keys begins the idempotency key of every command this connection
	// sends (key): unique to the connection, so that ids a client reuses
	// on another page or after a reload are new commands.
	keys string
	// sent is the ids of the commands this connection sent lately, oldest
	// first (copy): a message sent again is a copy of one that may have
	// been applied.
	sent []string
	// rematched is the answers to its rematch messages, by id (room.go).
	rematched map[string]rematchAnswer
}

// maxKeyID is the longest client message id that is also its command's
// idempotency key; a longer one is only echoed.
const maxKeyID = 64

// key is the idempotency key of the command of the client's message id
// (match.Command.Key): a message sent again with the same id on this
// connection is answered as the first was, and applied once.
func (gc *gameConn) key(id string) string {
	if id == "" || len(id) > maxKeyID {
		return ""
	}
	return gc.keys + "/" + id
}

// sentKept is how many of its last message ids a connection remembers:
// as many as an owner keeps answers (a copy comes within seconds).
const sentKept = 16

// copy reports whether the client sent a command with message id before on
// this connection, and remembers it. A copy is marked as a retry
// (match.Command.Retry): the owner that answered the first may have died
// since, taking its answers with it, and the game's next owner then judges
// the copy by what is stored (a move by the move at its ply, an end by the
// game's result) instead of as a new command.
func (gc *gameConn) copy(id string) bool {
	if gc.key(id) == "" {
		return false
	}
	if slices.Contains(gc.sent, id) {
		return true
	}
	if len(gc.sent) >= sentKept {
		gc.sent = append(gc.sent[:0], gc.sent[1:]...)
	}
	gc.sent = append(gc.sent, id)
	return false
}

// handleGameWS is the game channel, GET /api/games/{id}/ws.
func (s *Server) handleGameWS(w http.ResponseWriter, r *http.Request) {
	u, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	if s.games.Get(id) == nil {
		if _, err := s.store.Game(r.Context(), id); errors.Is(err, store.ErrNotFound) {
			writeError(w, errNotFound)
			return
		} else if err != nil {
			writeError(w, s.internal("game", err))
			return
		}
	}
	s.wg.Add(1)
	defer s.wg.Done()
	gc := &gameConn{wsConn: s.newWSConn(), id: id, seq: -1, keys: "ws-" + newID() + newID()}
	if u != nil {
		gc.uid = u.ID
		s.presence.socket(u.ID, 1)
		defer s.presence.socket(u.ID, -1)
		defer s.trackConn(u.ID, gc.wsConn)() // a closure of the account ends it (accountclosed.go)
	}
	defer gc.release()
	defer func() {
		if gc.seated {
			s.presence.leave(id, gc.uid)
		}
	}()
	// Listening first, then the snapshot: an event in between is either
	// in the snapshot (and skipped by its number) or after it. The
	// game's rematch, should there be one, is heard here too.
	defer s.hub.watchGame(id, gc.sub)()
	defer s.hub.watchGame(match.RematchID(id), gc.sub)()
	if !gc.upgrade(w, r) {
		return
	}
	if hook := testHookGameUpgraded.Load(); hook != nil {
		(*hook)()
	}
	snap, err := gc.snapshot()
	if err != nil {
		// A connection ended while the game loaded (its account closed,
		// the node stopping) says why, as it would a moment later; only
		// a load that failed of itself is the server's error.
		if gc.ctx.Err() != nil {
			gc.close()
		} else {
			gc.c.Close(websocket.StatusInternalError, "cannot load the game")
		}
		return
	}
	if !gc.write(snap) {
		return
	}
	gc.serve(func() { gc.readLoop(func(m wire.ClientMessage) { gc.handle(u, m) }) }, gc.render)
}

// snapshot is the game as the client's seat may see it now.
func (gc *gameConn) snapshot() ([]byte, error) {
	snap, err := gc.s.snapshot(gc.ctx, gc.id)
	if err != nil {
		return nil, err
	}
	gc.seq = snap.Seq()
	msg, rseq := gc.s.gameSnapshot(gc.ctx, snap, gc.uid)
	if msg.Room != nil {
		gc.room = msg.Room.N
	}
	if msg.Rematch != nil {
		gc.rematchSeq = max(gc.rematchSeq, rseq)
	}
	gc.sit(&snap.Meta)
	return marshal(msg), nil
}

// sit counts this page in the node's presence once its user holds a seat.
func (gc *gameConn) sit(m *match.Meta) {
	if !gc.seated && m.SeatOf(gc.uid) >= 0 {
		gc.seated = true
		gc.s.presence.join(gc.id, gc.uid)
	}
}

// resync sends a fresh snapshot (the connection missed an event), or ends
// the connection, whose client reconnects for one.
func (gc *gameConn) resync() [][]byte {
	msg, err := gc.snapshot()
	if err != nil {
		gc.cancel()
		return nil
	}
	return [][]byte{msg}
}

// render turns an event of the game into the messages for this client.
func (gc *gameConn) render(p *published) [][]byte {
	e := &p.Event
	switch {
	case e.Game != gc.id:
		return gc.renderRematch(p)
	case e.Kind.RoomEvent():
		return gc.renderRoom(p)
	case e.Seq <= gc.seq:
		return nil // already in what the client has
	case e.Seq > gc.seq+1 || e.Kind == match.EventResumed:
		// A gap (an event this connection never got) or a takeover by
		// another node (clocks moved on): a fresh snapshot.
		return gc.resync()
	}
	gc.seq = e.Seq
	gc.sit(&e.Meta)
	switch e.Kind {
	case match.EventStart:
		if hook := testHookGameStart.Load(); hook != nil {
			(*hook)()
		}
		seat := e.Meta.SeatOf(gc.uid)
		return [][]byte{p.message(seat, func() []byte { return marshal(gc.s.startMessage(gc.ctx, e, seat)) })}
	case match.EventMove:
		seat := e.Meta.SeatOf(gc.uid)
		return [][]byte{p.message(seat, func() []byte { return marshal(moveMessage(e, seat)) })}
	case match.EventTakeback:
		seat := e.Meta.SeatOf(gc.uid)
		return [][]byte{p.message(seat, func() []byte { return marshal(takebackMessage(e, seat)) })}
	case match.EventLobby, match.EventEnd:
		return [][]byte{p.message(audienceAll, func() []byte { return marshal(gc.s.gameEvent(gc.ctx, e)) })}
	}
	return nil
}

// handle answers a client's message.
func (gc *gameConn) handle(u *store.User, m wire.ClientMessage) {
	if u == nil {
		gc.replyError(m.ID, errf(http.StatusUnauthorized, "unauthorized", "spectators cannot act; sign in"))
		return
	}
	switch m.Type {
	case wire.TypeMove:
		ack, err := gc.s.move(gc.ctx, u, gc.id, m.MoveRequest, gc.key(m.ID), gc.copy(m.ID))
		if err != nil {
			gc.replyError(m.ID, err)
			return
		}
		gc.reply(wire.Ack{Type: wire.TypeAck, ID: m.ID, Ply: &ack.Move.Ply, Seq: ack.Seq()})
	case wire.TypeResign:
		ack, err := gc.s.command(gc.ctx, gc.id, match.Command{Kind: match.CmdResign, User: actor(u), Ply: -1, Key: gc.key(m.ID), Retry: gc.copy(m.ID)})
		if err != nil {
			gc.replyError(m.ID, err)
			return
		}
		gc.reply(wire.Ack{Type: wire.TypeAck, ID: m.ID, Seq: ack.Seq()})
	default:
		if !gc.handleRoom(u, m) {
			gc.replyError(m.ID, errf(http.StatusBadRequest, "bad_request", "unknown message type %q", m.Type))
		}
	}
}
