package cluster

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
)

// The event bus, receiving side. A node hears only the games and users its
// own connections watch: the first connection watching a game subscribes
// the node to the game's subject, the last one leaving unsubscribes it (a
// user's channel, to the user's subject, likewise). The connection to NATS
// is made with NoEcho, so a node never hears its own events: its
// connections have had them from its publisher (bus.go).
//
// Every subscription feeds one channel, read by one goroutine: the events
// of a game are handed on in the order they were published even when they
// come on two subscriptions (the game's and a user's), the copies are
// dropped by their numbers, and a gap in a game's numbers is filled from its publisher's
// history (history.go) before the events after it are handed on.

// inQueue is how many received messages may wait to be handed on; beyond
// it NATS drops them (a slow consumer), which the numbers show as a gap.
const inQueue = 65536

// flushTimeout bounds the wait for NATS to confirm a new subscription.
const flushTimeout = 2 * time.Second

// watches is the node's subscriptions, counted by what they watch: a game
// (its id) or a user ("user:" and the id).
type watches struct {
	mu sync.Mutex
	m  map[string]*watching
}

type watching struct {
	count int
	subs  []*nats.Subscription
	ready chan struct{} // closed once the subscriptions are in place
}

// The subjects of an event (bus.go): PREFIX.ev.GAME.UID when it asks user
// UID to move, PREFIX.ev.GAME.- otherwise — one message heard both by the
// nodes watching the game (PREFIX.ev.GAME.*) and by those watching the
// user (PREFIX.ev.*.UID) — and, for a game's creation, start and end, also
// PREFIX.user.UID for each of its users but the one asked to move.

// WatchGame tells the node that one more of its connections listens to game
// id's events; stop says it no longer does. From the first watcher on, the
// node hears the game's events; WatchGame returns once NATS has the
// subscription, so that a snapshot taken after it misses no event.
func (n *Node) WatchGame(id string) (stop func()) {
	return n.watch(id, n.subject("ev", id, "*"))
}

// WatchUser is WatchGame for user uid's channel: the invitations, starts,
// ends and requests to move of the user's games.
func (n *Node) WatchUser(uid int64) (stop func()) {
	u := strconv.FormatInt(uid, 10)
	return n.watch("user:"+u, n.subject("ev", "*", u), n.subject("user", u))
}

func (n *Node) watch(key string, subjects ...string) func() {
	n.watches.mu.Lock()
	w := n.watches.m[key]
	if w != nil {
		w.count++
		n.watches.mu.Unlock()
		<-w.ready
	} else {
		w = &watching{count: 1, ready: make(chan struct{})}
		n.watches.m[key] = w
		n.watches.mu.Unlock()
		var subs []*nats.Subscription
		var err error
		for _, subj := range subjects {
			var sub *nats.Subscription
			if sub, err = n.nc.ChanSubscribe(subj, n.in); err != nil {
				break
			}
			subs = append(subs, sub)
		}
		if err == nil {
			err = n.nc.FlushTimeout(flushTimeout)
		}
		if err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
			// NATS re-sends the subscriptions when it reconnects; until
			// then the connection's events have a gap, repaired as any.
			n.log.Warn("subscribe", "subjects", subjects, "err", err)
		}
		n.watches.mu.Lock()
		w.subs = subs
		if w.count == 0 {
			unsubscribe(subs) // every watcher left meanwhile
		}
		n.watches.mu.Unlock()
		close(w.ready)
	}
	var once sync.Once
	return func() { once.Do(func() { n.unwatch(key, w) }) }
}

func (n *Node) unwatch(key string, w *watching) {
	n.watches.mu.Lock()
	defer n.watches.mu.Unlock()
	w.count--
	if w.count > 0 {
		return
	}
	if n.watches.m[key] == w {
		delete(n.watches.m, key)
	}
	unsubscribe(w.subs) // none yet: watch unsubscribes when they are
	if !strings.HasPrefix(key, "user:") {
		n.inbound.forget(key)
	}
}

func unsubscribe(subs []*nats.Subscription) {
	for _, s := range subs {
		s.Unsubscribe()
	}
}

// inbound is what the node has handed on of each game it hears: the
// stream and the number of the last event, to drop copies and see gaps.
type inbound struct {
	mu    sync.Mutex
	games map[string]*heard
}

// maxHeard bounds the games remembered; it starts afresh beyond.
const maxHeard = 100000

type heard struct {
	node   string
	stream uint64
	last   uint64
	// based: last is from the game's own subject, whose events come
	// without gaps (a user's subject carries only some of them).
	based bool
	// repairing: the missed events are being fetched; what arrives
	// meanwhile waits in pending.
	repairing bool
	pending   []received
}

// received is one event message, read.
type received struct {
	node string
	ev   eventV1
	// game: it came on the game's subject.
	game bool
}

func (in *inbound) forget(game string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if g := in.games[game]; g != nil && !g.repairing {
		delete(in.games, game)
	}
}

// take says what to do with r: hand it on, or (gap > 0) fetch the events
// from gap up to it first. A copy, or an event that arrives while the game
// is being repaired (unless the repair itself passes it: repair), is
// neither.
func (in *inbound) take(r received, repair bool) (handOn bool, gap uint64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	g := in.games[r.ev.Game]
	if g == nil {
		if len(in.games) >= maxHeard {
			in.games = map[string]*heard{}
		}
		g = &heard{}
		in.games[r.ev.Game] = g
	}
	if g.repairing && !repair {
		g.pending = append(g.pending, r)
		return false, 0
	}
	if g.node != r.node || g.stream != r.ev.Stream {
		// The first event heard, or a new stream (another owner).
		g.node, g.stream, g.last, g.based = r.node, r.ev.Stream, r.ev.N, r.game
		return true, 0
	}
	if r.ev.N <= g.last {
		return false, 0 // heard on both subjects, or fetched already
	}
	// Once the game's own subscription has set the pace, a gap is a gap
	// whichever subscription brought the event after it (the game's and a
	// user's both bring the events that ask that user to move).
	if g.based && r.ev.N > g.last+1 && !repair {
		g.repairing = true
		g.pending = append(g.pending, r)
		return false, g.last + 1
	}
	g.last = r.ev.N
	g.based = g.based || r.game
	return true, 0
}

// filled records that the events up to n were fetched, to be handed on.
func (in *inbound) filled(game string, n uint64) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if g := in.games[game]; g != nil && n > g.last {
		g.last = n
	}
}

// next returns what arrived while game was repaired, and ends the repair
// when nothing did.
func (in *inbound) next(game string) []received {
	in.mu.Lock()
	defer in.mu.Unlock()
	g := in.games[game]
	if g == nil {
		return nil
	}
	p := g.pending
	g.pending = nil
	if len(p) == 0 {
		g.repairing = false
	}
	return p
}

// receive hands on the events of the node's subscriptions, in order, until
// the node stops.
func (n *Node) receive(remote match.Publisher) {
	defer n.wg.Done()
	evPrefix, anyGame := n.subject("ev")+".", n.subject("ev", "*")+"."
	for {
		var m *nats.Msg
		select {
		case <-n.ctx.Done():
			return
		case m = <-n.in:
		}
		if drop := n.testDrop.Load(); drop != nil && (*drop)(m) {
			continue
		}
		var r received
		msg, err := decode(m.Data, typeEvent, &r.ev)
		if err != nil {
			n.foreign(m.Subject, err)
			continue
		}
		if msg.Node == n.id || r.ev.Game == "" {
			continue // NoEcho: never; a game has an id
		}
		// Heard by the game's subscription (PREFIX.ev.GAME.*), not a
		// user's: the game's events come without gaps.
		sub := ""
		if m.Sub != nil {
			sub = m.Sub.Subject
		}
		r.node = msg.Node
		r.game = strings.HasPrefix(sub, evPrefix) && !strings.HasPrefix(sub, anyGame)
		handOn, gap := n.inbound.take(r, false)
		switch {
		case handOn:
			n.handOn(remote, &r.ev)
		case gap > 0:
			n.repairs.Add(1)
			go n.repair(remote, r, gap)
		}
	}
}

// repair fetches the events from gap up to r (excluded) from their
// publisher and hands them on, then what arrived meanwhile. Without them
// the events are handed on as they came, and the connections see the gap.
func (n *Node) repair(remote match.Publisher, r received, gap uint64) {
	defer n.repairs.Done()
	if evs, ok := n.fetch(r.node, r.ev.Game, r.ev.Stream, gap, r.ev.N-1); ok {
		n.inbound.filled(r.ev.Game, r.ev.N-1)
		n.filledGaps.Add(1)
		for i := range evs {
			n.handOn(remote, &evs[i])
		}
	}
	for {
		p := n.inbound.next(r.ev.Game)
		if len(p) == 0 {
			return
		}
		for _, q := range p {
			if handOn, _ := n.inbound.take(q, true); handOn {
				n.handOn(remote, &q.ev)
			}
		}
	}
}

// fetch asks node for events from to to of game's stream.
func (n *Node) fetch(node, game string, stream, from, to uint64) ([]eventV1, bool) {
	data, err := encode(typeHistory, n.id, historyV1{Game: game, Stream: stream, From: from, To: to})
	if err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(n.ctx, historyTimeout)
	defer cancel()
	m, err := n.nc.RequestWithContext(ctx, n.subject("hist", node), data)
	if err != nil {
		return nil, false
	}
	var rep historyRepV1
	if _, err := decode(m.Data, typeHistoryRep, &rep); err != nil || uint64(len(rep.Events)) != to-from+1 {
		return nil, false
	}
	out := make([]eventV1, len(rep.Events))
	for i, raw := range rep.Events {
		if _, err := decode(raw, typeEvent, &out[i]); err != nil || out[i].Game != game || out[i].Stream != stream || out[i].N != from+uint64(i) {
			return nil, false
		}
	}
	return out, true
}

// handOn gives the event w to this node's connections, with its start
// position read back from the database (starts.go).
func (n *Node) handOn(remote match.Publisher, w *eventV1) {
	e := eventFromWire(w)
	if w.Meta.Start {
		n.restore(n.ctx, &e.Meta)
	}
	remote.Publish(e)
}

// foreign logs a message this node cannot read: of another wire version
// (once per version), or unreadable.
func (n *Node) foreign(subject string, err error) {
	n.foreignMsgs.Add(1)
	if errors.Is(err, errVersion) || errors.Is(err, errType) {
		if _, seen := n.foreignSeen.LoadOrStore(err.Error(), true); seen {
			return
		}
	}
	n.log.Warn("a message this node does not read (ignored)", "subject", subject, "err", err)
}
