package cluster

import (
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
)

// The event bus: each game's events on its own subject, PREFIX.ev.GAME.

// envelope is an event on the bus, with the node that published it (a node
// hears its own events, and has already handed them to its connections).
type envelope struct {
	Node  string      `json:"node"`
	Event match.Event `json:"event"`
	// Start: the game has a start position, left out of Event.Meta
	// (starts.go).
	Start bool `json:"start,omitempty"`
}

// busQueue is how many events may wait to be sent; beyond it an event is
// dropped (and counted), which the other nodes' listeners notice as a gap.
const busQueue = 8192

type bus struct {
	n       *Node
	q       chan match.Event
	done    chan struct{}
	mu      sync.RWMutex // guards closed against sends on a closed q
	closed  bool
	dropped atomic.Int64
}

func newBus(n *Node) *bus {
	b := &bus{n: n, q: make(chan match.Event, busQueue), done: make(chan struct{})}
	go b.send()
	return b
}

// Publisher is the match.Publisher of the node's registry: every event of
// a game this node owns goes to local (its own connections) at once, and
// to the other nodes on the game's subject. It never blocks the game's
// owner: the event is encoded and sent on the bus's own goroutine, in
// order.
func (n *Node) Publisher(local match.Publisher) match.Publisher {
	return publisher{local, n.bus}
}

type publisher struct {
	local match.Publisher
	b     *bus
}

func (p publisher) Publish(e match.Event) {
	p.local.Publish(e)
	p.b.mu.RLock()
	defer p.b.mu.RUnlock()
	if p.b.closed {
		return
	}
	select {
	case p.b.q <- e:
	default:
		p.b.dropped.Add(1)
	}
}

// send publishes the queued events in order, without the game's seed or
// start position (starts.go).
func (b *bus) send() {
	defer close(b.done)
	for e := range b.q {
		start := hide(&e.Meta)
		data, err := json.Marshal(envelope{Node: b.n.id, Event: e, Start: start})
		if err != nil {
			b.n.log.Error("encode event", "game", e.Game, "err", err)
			continue
		}
		if err := b.n.nc.Publish(b.n.subject("ev", e.Game), data); err != nil {
			b.dropped.Add(1)
		}
	}
}

// close sends what is queued and stops.
func (b *bus) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.q)
	}
	b.mu.Unlock()
	<-b.done
}

// receive hands the events other nodes publish to remote.
func (b *bus) receive(remote match.Publisher) nats.MsgHandler {
	return func(m *nats.Msg) {
		var env envelope
		if err := json.Unmarshal(m.Data, &env); err != nil {
			b.n.log.Warn("an unreadable event on the bus", "subject", m.Subject, "err", err)
			return
		}
		if env.Node == b.n.id || env.Event.Game == "" {
			return
		}
		if env.Start {
			b.n.restore(b.n.ctx, &env.Event.Meta)
		}
		remote.Publish(env.Event)
	}
}
