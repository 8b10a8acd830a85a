package cluster

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// The history of the bus: the publisher of a game's events keeps its last
// few, so that a node that missed some (core NATS drops a message to a
// slow consumer, or across a reconnect) asks for them on PREFIX.hist.NODE
// instead of every one of its connections loading a snapshot. A gap longer
// than the history, or a publisher that has forgotten the game (or died),
// is repaired as before: the connections see the gap in the events'
// numbers and resynchronise from a snapshot.
//
// A game's events are numbered in a stream of the publishing node's
// (eventV1's Stream and N): a node that takes a game over numbers it in a
// stream of its own, and a node that forgot a game (idle, or its events
// crowded out) starts a new stream when it publishes again.

const (
	// historyLen is how many events are kept per game.
	historyLen = 64
	// historyBytes bounds the events kept for all games: beyond it the
	// events of the games that published least recently are dropped.
	historyBytes = 32 << 20
	// historyIdle: a game that published nothing for this long is
	// forgotten, its stream with it.
	historyIdle = 10 * time.Minute
	// historyGames bounds the games numbered (a stream costs little
	// without its events).
	historyGames = 100000
	// historyTimeout bounds a request for missed events: a publisher alive
	// answers from memory in a moment.
	historyTimeout = time.Second
)

type history struct {
	mu      sync.Mutex
	rings   map[string]*ring
	bytes   int
	streams uint64 // the last stream begun
	swept   time.Time
	now     func() time.Time
}

// ring is one game's stream and its last events.
type ring struct {
	stream uint64
	next   uint64   // the number of the stream's next event
	first  uint64   // the number of evs[0]
	evs    [][]byte // the last events, as sent
	last   time.Time
}

func newHistory() *history {
	return &history{rings: map[string]*ring{}, now: time.Now}
}

// number numbers the next event of game: its stream and its number there.
func (h *history) number(game string) (stream, n uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	if now.Sub(h.swept) > historyIdle/10 {
		h.sweep(now)
	}
	r := h.rings[game]
	if r == nil {
		if len(h.rings) >= historyGames {
			h.evictOldest(func(*ring) bool { return true }, true)
		}
		h.streams++
		r = &ring{stream: h.streams, next: 1, first: 1}
		h.rings[game] = r
	}
	r.last = now
	n = r.next
	r.next++
	return r.stream, n
}

// keep keeps event n of game (numbered by number), as sent.
func (h *history) keep(game string, n uint64, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rings[game]
	if r == nil {
		return
	}
	if len(r.evs) == 0 || r.first+uint64(len(r.evs)) != n {
		h.drop(r) // not next to what is kept (an event dropped): start afresh
		r.first = n
	}
	r.evs = append(r.evs, data)
	h.bytes += len(data)
	if len(r.evs) > historyLen {
		h.bytes -= len(r.evs[0])
		r.evs[0] = nil
		r.evs = r.evs[1:]
		r.first++
	}
	for h.bytes > historyBytes && h.evictOldest(func(r *ring) bool { return len(r.evs) > 0 }, false) {
	}
}

// get is the events from to to (both included) of game's stream, or false
// when any of them is not kept.
func (h *history) get(game string, stream, from, to uint64) ([]json.RawMessage, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rings[game]
	if r == nil || r.stream != stream || from > to || from < r.first || to >= r.first+uint64(len(r.evs)) || to-from >= historyLen {
		return nil, false
	}
	out := make([]json.RawMessage, 0, to-from+1)
	for n := from; n <= to; n++ {
		out = append(out, r.evs[n-r.first])
	}
	return out, true
}

// drop forgets r's events.
func (h *history) drop(r *ring) {
	for _, e := range r.evs {
		h.bytes -= len(e)
	}
	r.evs = nil
}

// evictOldest drops the events of the ring that published least recently
// among those that pass (and the ring itself when whole); false when none
// passes.
func (h *history) evictOldest(pass func(*ring) bool, whole bool) bool {
	var oldest string
	var at time.Time
	for id, r := range h.rings {
		if pass(r) && (oldest == "" || r.last.Before(at)) {
			oldest, at = id, r.last
		}
	}
	if oldest == "" {
		return false
	}
	h.drop(h.rings[oldest])
	if whole {
		delete(h.rings, oldest)
	}
	return true
}

// sweep forgets the games idle for historyIdle.
func (h *history) sweep(now time.Time) {
	h.swept = now
	for id, r := range h.rings {
		if now.Sub(r.last) > historyIdle {
			h.drop(r)
			delete(h.rings, id)
		}
	}
}

// serveHistory answers another node's request for events it missed.
func (n *Node) serveHistory(m *nats.Msg) {
	var req historyV1
	var rep historyRepV1
	if _, err := decode(m.Data, typeHistory, &req); err != nil {
		n.foreign(m.Subject, err)
	} else if evs, ok := n.bus.hist.get(req.Game, req.Stream, req.From, req.To); ok {
		rep.Events = evs
	}
	data, err := encode(typeHistoryRep, n.id, rep)
	if err == nil {
		err = m.Respond(data)
	}
	if err != nil && n.ctx.Err() == nil {
		n.log.Warn("answer a request for missed events", "game", req.Game, "err", err)
	}
}
