package cluster

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Command forwarding: a command for a game owned by another node goes to
// that node over NATS request/reply, on PREFIX.cmd.NODE.

// commandTimeout bounds the run of one forwarded command on its owner,
// like a local one's.
const commandTimeout = 30 * time.Second

// serveCommand runs a command another node forwarded here (commandV1),
// or creates a game (createV1), on its own goroutine (one slow game must
// not hold up the others), and answers with a replyV1.
func (n *Node) serveCommand(m *nats.Msg) {
	go func() {
		var rep replyV1
		var game string
		var cmd commandV1
		var create createV1
		msg, err := decode(m.Data, typeCommand, &cmd)
		if errors.Is(err, errType) && msg.Type == typeCreate {
			msg, err = decode(m.Data, typeCreate, &create)
		}
		switch {
		case errors.Is(err, errVersion):
			n.foreign(m.Subject, err)
			rep.Err = &errorV1{Code: string(match.CodeUnavailable), Message: "the game's server runs another version of the cluster's protocol; try again in a moment"}
		case err != nil || (msg.Type == typeCommand && cmd.Game == ""):
			n.foreign(m.Subject, err)
			rep.Err = &errorV1{Code: string(match.CodeBadRequest), Message: "unreadable forwarded command"}
		default:
			ctx, cancel := context.WithTimeout(n.ctx, commandTimeout)
			var ack match.Ack
			if msg.Type == typeCreate {
				meta := metaFromWire(&create.Meta)
				meta.StartPosition = create.StartPosition
				ack, err = n.reg.Create(ctx, match.User{ID: create.UserID, Guest: create.Guest}, meta)
			} else {
				game = cmd.Game
				ack, err = n.reg.Do(ctx, cmd.Game, commandFromWire(&cmd))
			}
			cancel()
			var me *match.Error
			switch {
			case err == nil:
				rep.Ack = ackToWire(&ack)
			case errors.As(err, &me):
				rep.Err = &errorV1{Code: string(me.Code), Message: me.Message}
			default:
				// ErrClosed, or this node stopping: the command did not
				// run here.
				rep.Closed = true
			}
		}
		data, err := encode(typeReply, n.id, rep)
		if err == nil {
			err = m.Respond(data)
		}
		if err != nil && n.ctx.Err() == nil {
			n.log.Warn("answer a forwarded command", "game", game, "err", err)
		}
	}()
}

// answer is a reply as what it says: the acknowledgement (with its game's
// start position read back, starts.go) or the refusal; ok is false when
// the reply says neither (Closed, or empty).
func (n *Node) answer(ctx context.Context, rep *replyV1) (ack match.Ack, err error, ok bool) {
	switch {
	case rep.Err != nil:
		return match.Ack{}, &match.Error{Code: match.Code(rep.Err.Code), Message: rep.Err.Message}, true
	case rep.Closed || rep.Ack == nil:
		return match.Ack{}, nil, false
	}
	ack = ackFromWire(rep.Ack)
	if rep.Ack.Meta.Start {
		n.restore(ctx, &ack.Meta)
	}
	return ack, nil, true
}

// errMoving answers a command whose game's owner could not be reached in
// time: it died, and no other node has taken the game over yet.
var errMoving = &match.Error{Code: match.CodeUnavailable, Message: "the game is moving to another server; try again in a moment"}

// attemptTimeout bounds one forwarding attempt: an owner alive answers in
// milliseconds, and one that does not is treated as gone (its command may
// have run: the next attempt is a retry).
const attemptTimeout = 3 * time.Second

// Forward runs c in game id on the node that owns it and returns its
// answer as if it had run here. It follows the game through a takeover:
// when the owner has died it waits (up to Config.ForwardTimeout) for the
// next one, and a command the dead owner may have run before dying is sent
// again marked as a retry (match.Command.Retry), so it is applied once.
// match.ErrClosed: the game is neither open nor live (or does not exist).
func (n *Node) Forward(ctx context.Context, id string, c match.Command) (match.Ack, error) {
	ctx, cancel := context.WithTimeout(ctx, n.cfg.ForwardTimeout)
	defer cancel()
	// A command keyed by its client may be a copy of one the game's owner
	// ran before the game ended (a client's resend).
	clientKey := c.Key != ""
	if !clientKey {
		// Every attempt carries the same key, so that the owner answers
		// a second attempt of a command it has run with its first answer.
		c.Key = newKey()
	}
	pause := 25 * time.Millisecond
	for {
		owner, err := n.owners.get(ctx, n.cfg.Store, id)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return match.Ack{}, match.ErrClosed
		case err != nil:
			if ctx.Err() != nil {
				return match.Ack{}, errMoving
			}
			return match.Ack{}, err
		case owner.Status != match.Open && owner.Status != match.Live:
			if clientKey && owner.Node != "" {
				// A client's copy of a command that may have ended
				// the game: its last owner keeps its answer a while.
				if ack, err, ok := n.lateAnswer(ctx, owner.Node, id, c); ok {
					return ack, err
				}
			}
			if c.Retry {
				// The game ended while the command was on its way: by
				// this command, whose answer was lost with its owner?
				if ack, ok := n.endedBy(ctx, id, c); ok {
					return ack, nil
				}
			}
			return match.Ack{}, match.ErrClosed
		case owner.Node == n.id:
			// Ours, but not running here: being adopted right now, or
			// lost a moment ago.
			ack, err := n.reg.Do(ctx, id, c)
			if !errors.Is(err, match.ErrClosed) {
				return ack, err
			}
		case owner.Node != "":
			rep, err := n.request(ctx, owner.Node, id, c)
			switch {
			case err == nil && !rep.Closed:
				ack, err, ok := n.answer(ctx, &rep)
				if !ok {
					return match.Ack{}, errMoving
				}
				return ack, err
			case errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded):
				// The owner got the command and did not answer: it may
				// have run it.
				c.Retry = true
			case errors.Is(err, nats.ErrNoResponders) || err == nil:
				// Gone (nobody listens on its subject) or no owner of
				// the game there: the command did not run.
			default:
				if ctx.Err() == nil {
					n.log.Warn("forward a command", "game", id, "to", owner.Node, "err", err)
				}
			}
		}
		n.owners.forget(id)
		select {
		case <-ctx.Done():
			return match.Ack{}, errMoving
		case <-time.After(pause):
		}
		pause = min(2*pause, 400*time.Millisecond)
	}
}

// lateAnswer asks node, the last owner of the ended game id, for the
// answer it kept to c's first copy (match.Registry.Do); ok is false when
// it kept none, or cannot be asked.
func (n *Node) lateAnswer(ctx context.Context, node, id string, c match.Command) (match.Ack, error, bool) {
	if node == n.id {
		ack, err := n.reg.Do(ctx, id, c)
		return ack, err, !errors.Is(err, match.ErrClosed)
	}
	rep, err := n.request(ctx, node, id, c)
	if err != nil {
		return match.Ack{}, nil, false
	}
	return n.answer(ctx, &rep)
}

// endedBy answers a retried command c as done when game id's stored end
// is c's (match.EndedBy), or c is a move stored (match.MoveStored: the
// move that ended the game, or one before).
func (n *Node) endedBy(ctx context.Context, id string, c match.Command) (match.Ack, bool) {
	m, err := n.cfg.Store.Game(ctx, id)
	if err != nil {
		return match.Ack{}, false
	}
	if c.Kind == match.CmdMove {
		moves, err := n.cfg.Store.Moves(ctx, id)
		if err != nil || !match.MoveStored(&m, moves, c) {
			return match.Ack{}, false
		}
		mv := moves[c.Ply]
		return match.Ack{Meta: m, Move: &mv}, true
	}
	if !match.EndedBy(&m, c) {
		return match.Ack{}, false
	}
	return match.Ack{Meta: m}, true
}

// newKey is an idempotency key for a forwarded command that came without
// one.
func newKey() string {
	var b [12]byte
	crand.Read(b[:])
	return "fwd-" + hex.EncodeToString(b[:])
}

// errAllFull answers the creation of a bot game when every node's bot
// budget is full.
var errAllFull = &match.Error{Code: match.CodeUnavailable, Message: "every server is at its bot budget; try again in a while"}

// CreateElsewhere creates a new game on another node, which owns it: for a
// game with a bot seat that this node, at its bot budget, should not take.
// The node is one whose budget has room, at random; none: errAllFull.
// The creation is not retried — its answer lost, the game may exist — so a
// failure is a clear error and the client may create the game again.
func (n *Node) CreateElsewhere(ctx context.Context, creator match.User, m match.Meta) (match.Ack, error) {
	nodes, err := n.cfg.Store.LiveNodes(ctx)
	if err != nil {
		return match.Ack{}, err
	}
	var room []string
	for _, nd := range nodes {
		if nd.ID != n.id && !nd.BotsFull {
			room = append(room, nd.ID)
		}
	}
	if len(room) == 0 {
		return match.Ack{}, errAllFull
	}
	data, err := encode(typeCreate, n.id, createV1{UserID: creator.ID, Guest: creator.Guest, Meta: metaToWire(&m), StartPosition: m.StartPosition})
	if err != nil {
		return match.Ack{}, err
	}
	rep, err := n.send(ctx, room[rand.IntN(len(room))], data)
	if err != nil {
		if ctx.Err() == nil {
			n.log.Warn("create a game on another node", "err", err)
		}
		return match.Ack{}, errMoving
	}
	ack, err, ok := n.answer(ctx, &rep)
	if !ok {
		return match.Ack{}, errMoving
	}
	return ack, err
}

// request sends one forwarded command to node and waits for its answer.
func (n *Node) request(ctx context.Context, node, id string, c match.Command) (replyV1, error) {
	data, err := encode(typeCommand, n.id, commandToWire(id, &c))
	if err != nil {
		return replyV1{}, err
	}
	return n.send(ctx, node, data)
}

// send sends a request to node and waits for its answer.
func (n *Node) send(ctx context.Context, node string, data []byte) (replyV1, error) {
	ctx, cancel := context.WithTimeout(ctx, attemptTimeout)
	defer cancel()
	m, err := n.nc.RequestWithContext(ctx, n.subject("cmd", node), data)
	if err != nil {
		return replyV1{}, err
	}
	var rep replyV1
	if _, err := decode(m.Data, typeReply, &rep); err != nil {
		n.foreign(m.Subject, err)
		return replyV1{}, err
	}
	return rep, nil
}

// ownerCache remembers which node owns each game, so that forwarding does
// not ask the database every time; an entry is forgotten when it proves
// wrong. Owners change only when a node dies.
type ownerCache struct {
	mu sync.Mutex
	m  map[string]string
}

// maxCached bounds the cache; it starts afresh beyond.
const maxCached = 100000

func (c *ownerCache) get(ctx context.Context, s store.Leases, id string) (store.Owner, error) {
	c.mu.Lock()
	node, ok := c.m[id]
	c.mu.Unlock()
	if ok {
		return store.Owner{Node: node, Status: match.Live}, nil
	}
	o, err := s.Owner(ctx, id)
	if err != nil {
		return o, err
	}
	if o.Node != "" && (o.Status == match.Open || o.Status == match.Live) {
		c.mu.Lock()
		if len(c.m) >= maxCached {
			c.m = map[string]string{}
		}
		c.m[id] = o.Node
		c.mu.Unlock()
	}
	return o, nil
}

func (c *ownerCache) forget(id string) {
	c.mu.Lock()
	delete(c.m, id)
	c.mu.Unlock()
}
