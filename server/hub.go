package server

import (
	"sync"

	"github.com/tabula-games/tabula/match"
)

// hub is this node's fan-out. It is the match.Publisher of the games this
// node owns: it hands each event, in order, to the WebSocket connections
// that listen to it — game channels by game, user channels by user — and
// each connection turns it into the messages its client may see. A cluster
// publishes the events on a bus as well and feeds into each node's hub the
// events of the games (and users) its connections watch.
type hub struct {
	s     *Server
	mu    sync.Mutex
	games map[string]map[*sub]struct{}
	users map[int64]map[*sub]struct{}
}

func newHub(s *Server) *hub {
	return &hub{s: s, games: map[string]map[*sub]struct{}{}, users: map[int64]map[*sub]struct{}{}}
}

// Publish implements match.Publisher. It never blocks: a connection that
// cannot keep up is disconnected (and resynchronises when it reconnects).
func (h *hub) Publish(e match.Event) {
	if e.Kind == match.EventMove {
		h.s.metrics.moves.Inc()
	}
	if e.Kind == match.EventEnd && e.Meta.Rated && e.Meta.Status == match.Finished {
		// The owner's node says its players' ratings changed: other
		// nodes hear only the games they watch.
		h.s.forgetUsers(seatUsers(e.Meta.Seats))
	}
	if e.Kind == match.EventEnd {
		h.s.pokeDirector() // an arena pairs a player again as soon as their game ends (director/arena.go)
	}
	h.deliver(e)
	// The inbox's and the followers' notices (inbox.go): once per event.
	h.s.inboxEvent(&e)
}

// deliver hands e to the connections that listen to it.
func (h *hub) deliver(e match.Event) {
	p := &published{Event: e}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.games[e.Game] {
		c.send(outgoing{event: p})
	}
	// The users of the game's seats hear of it on their user channels:
	// invitations, starts, ends and their turns.
	seen := map[int64]bool{}
	for _, se := range e.Meta.Seats {
		if se.UserID == 0 || seen[se.UserID] {
			continue
		}
		seen[se.UserID] = true
		for c := range h.users[se.UserID] {
			c.send(outgoing{event: p})
		}
	}
}

// subscribe adds c to the listeners of key in m, returning the way to
// remove it.
func subscribe[K comparable](h *hub, m map[K]map[*sub]struct{}, key K, c *sub) (unsubscribe func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := m[key]
	if set == nil {
		set = map[*sub]struct{}{}
		m[key] = set
	}
	set[c] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(m[key], c)
		if len(m[key]) == 0 {
			delete(m, key)
		}
	}
}

// watchGame makes c a listener of the game id's events (in a cluster, the
// node hears them from then on: Cluster.WatchGame).
func (h *hub) watchGame(id string, c *sub) func() {
	stop := subscribe(h, h.games, id, c)
	if h.s.cfg.Cluster == nil {
		return stop
	}
	leave := h.s.cfg.Cluster.WatchGame(id)
	return func() { stop(); leave() }
}

// watchUser makes c a listener of the events of uid's games.
func (h *hub) watchUser(uid int64, c *sub) func() {
	stop := subscribe(h, h.users, uid, c)
	if h.s.cfg.Cluster == nil {
		return stop
	}
	leave := h.s.cfg.Cluster.WatchUser(uid)
	return func() { stop(); leave() }
}

// published is an event on its way to the connections, with the messages
// built from it so far: every spectator (every player of a seat) gets the
// same bytes, built once.
type published struct {
	match.Event
	mu      sync.Mutex
	encoded map[int][]byte
}

// message returns the message for key (an audience: a seat, or one of the
// keys below), building it the first time.
func (p *published) message(key int, build func() []byte) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b, ok := p.encoded[key]; ok {
		return b
	}
	if p.encoded == nil {
		p.encoded = map[int][]byte{}
	}
	b := build()
	p.encoded[key] = b
	return b
}

// Audiences of messages that are the same for every seat.
const (
	audienceAll = -100 - iota
	audienceUsers
)

// outgoing is one item of a connection's queue: bytes ready to send, or an
// event for the connection to render.
type outgoing struct {
	msg   []byte
	event *published
}

// sub is one WebSocket connection's outgoing queue. The hub never blocks
// on it: a client that cannot keep up is disconnected (and gets a fresh
// snapshot when it reconnects).
type sub struct {
	ch   chan outgoing
	kick func()
}

const subQueue = 256

func newSub(kick func()) *sub {
	return &sub{ch: make(chan outgoing, subQueue), kick: kick}
}

func (c *sub) send(o outgoing) {
	select {
	case c.ch <- o:
	default:
		c.kick()
	}
}
