package server

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/server/wire"
)

// This file is what the two WebSocket channels (gamechannel.go,
// userchannel.go) share: the upgrade, a writer that drains the
// connection's queue, a reader with its rate limit, and a close that says
// why.

const wsWriteTimeout = 10 * time.Second

// testHookUserUpgraded, set only by tests, runs on a user channel between
// the handshake and serving: a test holds the server there to show that a
// notice sent meanwhile is not lost.
var testHookUserUpgraded atomic.Pointer[func()]

// testHookGameStart, set only by tests, runs on a game channel's writer
// before it renders a game's start: a test holds it there while the game
// moves on, to show that the client still gets the start as it was.
var testHookGameStart atomic.Pointer[func()]

// testHookGameUpgraded, set only by tests, runs on a game channel between
// the handshake and loading the game: a test closes the account there.
var testHookGameUpgraded atomic.Pointer[func()]

type wsConn struct {
	s      *Server
	c      *websocket.Conn
	sub    *sub
	ctx    context.Context
	cancel context.CancelFunc
	// rctx is the reader's: not wc.ctx, whose end would drop the TCP
	// connection under the close frame that serve then writes (the
	// library closes a connection whose read context ends); serve ends it
	// once that frame is out.
	rctx    context.Context
	rcancel context.CancelFunc
	slow    atomic.Bool
	tooBig  atomic.Bool // the client announced a frame over the limit
	closed  atomic.Bool // a moderator closed the user's account (accountclosed.go)
	// counted: the handshake completed, so the connection is one of the
	// metrics' tabula_ws_clients until release.
	counted bool
	limit   *connLimiter
}

// newWSConn prepares a connection's queue before the upgrade, so that a
// channel can register it first: once the client sees the handshake
// complete, nothing sent to it afterwards is lost.
func (s *Server) newWSConn() *wsConn {
	ctx, cancel := context.WithCancel(s.ctx)
	wc := &wsConn{s: s, ctx: ctx, cancel: cancel, limit: newConnLimiter(s.cfg.WSRate, s.now())}
	wc.rctx, wc.rcancel = context.WithCancel(context.Background())
	wc.sub = newSub(func() {
		wc.slow.Store(true)
		cancel()
	})
	return wc
}

// upgrade answers the WebSocket handshake. On false the request has been
// answered. The caller releases wc (release) when it is done with it.
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
	// Counted from the handshake, not from serve: the client may act on
	// the connection (and read the metrics) as soon as its dial returns,
	// before the first message is written.
	wc.counted = true
	wc.s.metrics.wsClients.Inc()
	return true
}

// release ends the connection's context and, once the handshake has
// completed, its place among the connected clients. The handler that made
// wc calls it once, when it returns.
func (wc *wsConn) release() {
	wc.cancel()
	if wc.counted {
		wc.counted = false
		wc.s.metrics.wsClients.Dec()
	}
}

// serve runs the writer until the connection ends, with read running the
// reader; render turns each event of the queue into the messages this
// client gets. Then it closes the connection with a status that says why.
func (wc *wsConn) serve(read func(), render func(p *published) [][]byte) {
	defer wc.rcancel()
	go func() {
		defer wc.cancel()
		read()
	}()
	for {
		select {
		case o := <-wc.sub.ch:
			msgs := [][]byte{o.msg}
			if o.event != nil {
				msgs = render(o.event)
			}
			for _, msg := range msgs {
				if !wc.write(msg) {
					return
				}
			}
		case <-wc.ctx.Done():
			wc.close()
			return
		}
	}
}

// write sends one message; on false the connection is closed. The write's
// context is its timeout alone, not wc.ctx: the library drops the
// connection when a write's context ends mid-frame, and with it the close
// frame that says why (a closed account's 1008, a shutdown's 1001) — a
// closure that came while a message was being sent left the client an EOF.
// wc.ctx is looked at between messages instead.
func (wc *wsConn) write(msg []byte) bool {
	if wc.ctx.Err() != nil {
		wc.close()
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), wsWriteTimeout)
	err := wc.c.Write(ctx, websocket.MessageText, msg)
	cancel()
	if err != nil {
		wc.cancel()
		wc.close()
		return false
	}
	return true
}

func (wc *wsConn) close() {
	switch {
	case wc.s.ctx.Err() != nil:
		wc.c.Close(websocket.StatusGoingAway, "server shutting down; reconnect")
	case wc.closed.Load():
		wc.c.Close(websocket.StatusPolicyViolation, closedReason)
	case wc.slow.Load():
		wc.c.Close(websocket.StatusPolicyViolation, "too slow to keep up; reconnect")
	case wc.tooBig.Load():
		wc.c.Close(websocket.StatusMessageTooBig, "message too big")
	default:
		wc.c.Close(websocket.StatusNormalClosure, "")
	}
}

// reply queues an answer to the client.
func (wc *wsConn) reply(v any) { wc.sub.send(outgoing{msg: marshal(v)}) }

// replyError queues the refusal of the client's message id.
func (wc *wsConn) replyError(id string, err error) {
	wc.reply(wire.Error{Type: wire.TypeError, ID: id, Error: apiErrorOf(err).body()})
}

// readLoop reads client messages and hands each to handle. Bad JSON and
// too many messages are answered with an error and otherwise ignored;
// oversized messages end the connection (the library closes it with 1009).
func (wc *wsConn) readLoop(handle func(m wire.ClientMessage)) {
	for {
		_, data, err := wc.c.Read(wc.rctx)
		if err != nil {
			return
		}
		if !wc.limit.allow(wc.s.now()) {
			wc.replyError("", errf(http.StatusTooManyRequests, "rate_limited", "too many messages"))
			continue
		}
		m, err := decodeClientMessage(data)
		if err != nil {
			wc.replyError(readableID(data), err)
			continue
		}
		handle(m)
	}
}

// decodeClientMessage reads one message a client sent on either channel:
// clean text (no NUL, valid UTF-8), then the JSON of a wire.ClientMessage.
// What it refuses is a 400 for the client.
func decodeClientMessage(data []byte) (wire.ClientMessage, error) {
	var m wire.ClientMessage
	if err := checkJSONText(data); err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, errf(http.StatusBadRequest, "bad_json", "malformed JSON: %v", err)
	}
	return m, nil
}

// readableID is the id of a message decodeClientMessage refused, when it
// can still be read and is clean text itself, so that the client learns
// which of its messages was refused; "" otherwise.
func readableID(data []byte) string {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	var id string
	if json.Unmarshal(data, &m) != nil || !utf8.Valid(m.ID) || json.Unmarshal(m.ID, &id) != nil || !cleanText(id) {
		return ""
	}
	return id
}

// marshal encodes a message. The wire types always encode.
func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("server: marshal message: " + err.Error())
	}
	return b
}
