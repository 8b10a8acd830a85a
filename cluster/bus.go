package cluster

import (
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/tabula-games/tabula/match"
)

// The event bus, publishing side. The owner of a game publishes each of
// its events as an event message (wire.go) on the game's subject — heard
// by the nodes with a connection watching the game, and by those watching
// the user it asks to move (watch.go) — and a creation, start or end also
// on the subject of each of the game's users, whose channels show them
// (server/userchannel.go). It keeps the game's last events (history.go)
// for a node that missed a few.

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
	hist    *history
}

func newBus(n *Node) *bus {
	b := &bus{n: n, q: make(chan match.Event, busQueue), done: make(chan struct{}), hist: newHistory()}
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

// send publishes the queued events in order.
func (b *bus) send() {
	defer close(b.done)
	for e := range b.q {
		b.publish(&e)
	}
}

// publish numbers e in its game's stream, keeps it, and sends it on its
// game's subject and its users'. Its game's seed and start position stay
// off the bus (eventToWire).
func (b *bus) publish(e *match.Event) {
	w := eventToWire(e)
	w.Stream, w.N = b.hist.number(e.Game)
	data, err := encode(typeEvent, b.n.id, w)
	if err != nil {
		b.n.log.Error("encode event", "game", e.Game, "err", err)
		return
	}
	b.hist.keep(e.Game, w.N, data)
	// The user asked to move, if any, is in the event's subject
	// (watch.go).
	asked, to := int64(0), "-"
	if e.Prompt != nil && e.Prompt.UserID != 0 {
		asked, to = e.Prompt.UserID, strconv.FormatInt(e.Prompt.UserID, 10)
	}
	if err := b.n.nc.Publish(b.n.subject("ev", e.Game, to), data); err != nil {
		b.dropped.Add(1)
	}
	for _, uid := range users(e) {
		if uid == asked {
			continue
		}
		if err := b.n.nc.Publish(b.n.subject("user", strconv.FormatInt(uid, 10)), data); err != nil {
			b.dropped.Add(1)
		}
	}
}

// users is the users whose channels show e besides the user it asks to
// move: the users of the game's seats (invited or seated) for its
// creation, start and end.
func users(e *match.Event) []int64 {
	switch e.Kind {
	case match.EventCreated, match.EventStart, match.EventEnd:
	default:
		return nil
	}
	var out []int64
	for _, s := range e.Meta.Seats {
		if s.UserID != 0 && (s.Kind == match.SeatHuman || s.Kind == match.SeatInvite) && !slices.Contains(out, s.UserID) {
			out = append(out, s.UserID)
		}
	}
	return out
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
