package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

const wsWriteTimeout = 10 * time.Second

// testHookUserUpgraded, set only by tests, runs on a user channel between
// the handshake and serving: a test holds the server there to show that a
// notice sent meanwhile is not lost.
var testHookUserUpgraded atomic.Pointer[func()]

// wsConn is the part shared by the game and user channels: upgrade, a
// writer that drains the connection's queue, and a close that says why.
type wsConn struct {
	s      *Server
	c      *websocket.Conn
	sub    *sub
	ctx    context.Context
	cancel context.CancelFunc
	slow   atomic.Bool
	tooBig atomic.Bool // the client announced a frame over the limit
	limit  *connLimiter
}

// newWSConn prepares a connection's queue before the upgrade, so that a
// channel can register it first: once the client sees the handshake
// complete, nothing sent to it afterwards is lost.
func (s *Server) newWSConn(uid int64) *wsConn {
	ctx, cancel := context.WithCancel(s.ctx)
	wc := &wsConn{s: s, ctx: ctx, cancel: cancel, limit: newConnLimiter(s.cfg.WSRate, s.now())}
	wc.sub = newSub(uid, func() {
		wc.slow.Store(true)
		cancel()
	})
	return wc
}

// upgrade answers the WebSocket handshake. On false the request has been
// answered. The caller cancels wc's context when it is done with it.
func (wc *wsConn) upgrade(w http.ResponseWriter, r *http.Request) bool {
	c, err := websocket.Accept(guardedWriter{ResponseWriter: w, limit: maxWSMessage, tripped: &wc.tooBig}, r, nil)
	if err != nil {
		// Accept has answered the request (a bad upgrade or a foreign
		// origin, which it refuses so that no other site can use a
		// visitor's cookie).
		return false
	}
	c.SetReadLimit(maxWSMessage)
	wc.c = c
	return true
}

// serve runs the writer until the connection ends, with read running the
// reader; then it closes the connection with a status that says why.
func (wc *wsConn) serve(read func()) {
	wc.s.metrics.wsClients.Inc()
	defer wc.s.metrics.wsClients.Dec()
	go func() {
		defer wc.cancel()
		read()
	}()
	for {
		select {
		case msg := <-wc.sub.ch:
			ctx, cancel := context.WithTimeout(wc.ctx, wsWriteTimeout)
			err := wc.c.Write(ctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				wc.cancel()
				wc.close()
				return
			}
		case <-wc.ctx.Done():
			wc.close()
			return
		}
	}
}

func (wc *wsConn) close() {
	switch {
	case wc.s.ctx.Err() != nil:
		wc.c.Close(websocket.StatusGoingAway, "server shutting down; reconnect")
	case wc.slow.Load():
		wc.c.Close(websocket.StatusPolicyViolation, "too slow to keep up; reconnect")
	case wc.tooBig.Load():
		wc.c.Close(websocket.StatusMessageTooBig, "message too big")
	default:
		wc.c.Close(websocket.StatusNormalClosure, "")
	}
}

// clientMsg is anything a client sends on either channel.
type clientMsg struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Ply  *int   `json:"ply"`
	Move string `json:"move"`
	Seat *int   `json:"seat"`
}

func errorMsg(id string, err error) []byte {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errUnavailable
	}
	return marshal(map[string]any{"type": "error", "id": id, "error": ae})
}

// readLoop reads client messages and hands each to handle. Bad JSON and
// too many messages are answered with an error and otherwise ignored;
// oversized messages end the connection (the library closes it with 1009).
func (wc *wsConn) readLoop(handle func(m clientMsg)) {
	for {
		_, data, err := wc.c.Read(wc.ctx)
		if err != nil {
			return
		}
		if !wc.limit.allow(wc.s.now()) {
			wc.sub.send(errorMsg("", errf(http.StatusTooManyRequests, "rate_limited", "too many messages")))
			continue
		}
		if err := checkJSONText(data); err != nil {
			wc.sub.send(errorMsg("", err))
			continue
		}
		var m clientMsg
		if err := json.Unmarshal(data, &m); err != nil {
			wc.sub.send(errorMsg("", errf(http.StatusBadRequest, "bad_json", "malformed JSON: %v", err)))
			continue
		}
		handle(m)
	}
}

// handleGameWS is the game channel: a snapshot, then every change of one
// game; players may send moves on it.
func (s *Server) handleGameWS(w http.ResponseWriter, r *http.Request) {
	u, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	rm := s.hub.room(id)
	if rm == nil {
		if _, err := s.store.Game(r.Context(), id); errors.Is(err, store.ErrNotFound) {
			writeError(w, errNotFound)
			return
		} else if err != nil {
			writeError(w, s.internal("game", err))
			return
		}
	}
	var uid int64
	if u != nil {
		uid = u.ID
	}
	s.wg.Add(1)
	defer s.wg.Done()
	wc := s.newWSConn(uid)
	defer wc.cancel()
	if !wc.upgrade(w, r) {
		return
	}
	var snap []byte
	if rm != nil {
		err := rm.call(wc.ctx, func() {
			rm.subs[wc.sub] = struct{}{}
			snap = rm.snapshot(uid)
		})
		if err == nil {
			defer rm.call(context.Background(), func() { delete(rm.subs, wc.sub) })
		}
	}
	if snap == nil {
		gs, err := s.loadGame(wc.ctx, id)
		if err != nil {
			wc.c.Close(websocket.StatusInternalError, "cannot load the game")
			return
		}
		snap = storedSnapshot(gs, uid)
	}
	wc.sub.send(snap)
	wc.serve(func() {
		wc.readLoop(func(m clientMsg) {
			if u == nil {
				wc.sub.send(errorMsg(m.ID, errf(http.StatusUnauthorized, "unauthorized", "spectators cannot act; sign in")))
				return
			}
			switch m.Type {
			case "move":
				mv, err := s.move(wc.ctx, u, id, moveReq{Ply: m.Ply, Move: m.Move, Seat: m.Seat})
				if err != nil {
					wc.sub.send(errorMsg(m.ID, err))
					return
				}
				wc.sub.send(marshal(map[string]any{"type": "ack", "id": m.ID, "ply": mv.Ply}))
			case "resign":
				err := s.inRoom(wc.ctx, id, func(rm *room) error { return rm.resign(u) })
				if err != nil {
					wc.sub.send(errorMsg(m.ID, err))
					return
				}
				wc.sub.send(marshal(map[string]any{"type": "ack", "id": m.ID}))
			default:
				wc.sub.send(errorMsg(m.ID, errf(http.StatusBadRequest, "bad_request", "unknown message type %q", m.Type)))
			}
		})
	})
}

// storedSnapshot is the snapshot of a game that has no room (finished,
// aborted, imported).
func storedSnapshot(gs *gameState, uid int64) []byte {
	seat := -1
	for i, se := range gs.meta.Seats {
		if uid != 0 && se.Kind == match.SeatHuman && se.UserID == uid {
			seat = i
		}
	}
	v, _ := game.View(gs.st, seat)
	return marshal(snapshotMsg{Type: "snapshot", Game: gs.sum, Seat: seat, Moves: movesJSON(gs.moves), View: v})
}

// handleUserWS is the user channel, the bot API: a move request whenever it
// is the user's turn in any game, answered on the same connection.
func (s *Server) handleUserWS(w http.ResponseWriter, r *http.Request) {
	u, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if u == nil {
		writeError(w, errUnauthorized)
		return
	}
	s.wg.Add(1)
	defer s.wg.Done()
	// Registered before the handshake completes: a client may act (create
	// a game that invites it, say) the moment its dial returns.
	wc := s.newWSConn(u.ID)
	defer wc.cancel()
	s.hub.addUser(u.ID, wc.sub)
	defer s.hub.removeUser(u.ID, wc.sub)
	if !wc.upgrade(w, r) {
		return
	}
	if hook := testHookUserUpgraded.Load(); hook != nil {
		(*hook)()
	}
	// Registered first, then what is waiting for this user — turns to
	// play, then invitations still open: one that arrives in between is
	// sent twice rather than never.
	go s.sendWaiting(wc, u.ID)
	wc.serve(func() {
		wc.readLoop(func(m clientMsg) {
			if m.Type != "move" {
				wc.sub.send(errorMsg(m.ID, errf(http.StatusBadRequest, "bad_request", "unknown message type %q", m.Type)))
				return
			}
			if m.ID == "" {
				wc.sub.send(errorMsg(m.ID, errf(http.StatusBadRequest, "bad_request", "id (the game) is required")))
				return
			}
			mv, err := s.move(wc.ctx, u, m.ID, moveReq{Ply: m.Ply, Move: m.Move, Seat: m.Seat})
			if err != nil {
				wc.sub.send(errorMsg(m.ID, err))
				return
			}
			wc.sub.send(marshal(map[string]any{"type": "ack", "id": m.ID, "ply": mv.Ply}))
		})
	})
}

// sendWaiting sends a user channel that has just connected a move request
// for every game in which uid is to move and an invite for every open game
// that still holds a seat for uid, so a bot that was away misses nothing.
func (s *Server) sendWaiting(wc *wsConn, uid int64) {
	s.inRoomsOf(wc.ctx, store.GameFilter{Statuses: []match.Status{match.Live}, UserID: uid, ToMove: true, Limit: 200}, func(rm *room) {
		if to, msg := rm.turnMessage(); msg != nil && to == uid {
			wc.sub.send(msg)
		}
	})
	s.inRoomsOf(wc.ctx, store.GameFilter{Statuses: []match.Status{match.Open}, UserID: uid, Limit: 200}, func(rm *room) {
		if rm.meta.Status == match.Open && slices.ContainsFunc(rm.meta.Seats, func(se match.Seat) bool {
			return se.Kind == match.SeatInvite && se.UserID == uid
		}) {
			wc.sub.send(marshal(map[string]any{"type": "invite", "game": rm.summary()}))
		}
	})
}

// inRoomsOf runs fn in the room of every stored game that f selects and that
// has a room; fn sees the room's current state, not the stored row's.
func (s *Server) inRoomsOf(ctx context.Context, f store.GameFilter, fn func(rm *room)) {
	games, err := s.store.Games(ctx, f)
	if err != nil {
		return
	}
	for _, g := range games {
		if rm := s.hub.room(g.ID); rm != nil {
			rm.call(ctx, func() { fn(rm) })
		}
	}
}
