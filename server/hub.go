package server

import (
	"context"
	"fmt"
	"sync"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// hub holds the rooms of the open and live games and the user channels
// (bot API connections) by user.
type hub struct {
	s     *Server
	mu    sync.Mutex
	rooms map[string]*room
	users map[int64]map[*sub]struct{}
}

func newHub(s *Server) *hub {
	return &hub{s: s, rooms: map[string]*room{}, users: map[int64]map[*sub]struct{}{}}
}

// room returns the owner of an open or live game, or nil.
func (h *hub) room(id string) *room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rooms[id]
}

// load starts the owner of a stored open or live game: its state is rebuilt
// by replaying the stored moves through the game's rules.
func (h *hub) load(ctx context.Context, meta match.Meta) (*room, error) {
	g, err := game.Lookup(meta.Game)
	if err != nil {
		return nil, err
	}
	moves, err := h.s.store.Moves(ctx, meta.ID)
	if err != nil {
		return nil, err
	}
	st, err := replay(&meta, moves, -1)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if meta.Ply != len(moves) {
		return nil, fmt.Errorf("game row says %d moves, %d stored", meta.Ply, len(moves))
	}
	r := newRoom(h.s, g, meta, st, moves)
	h.mu.Lock()
	if old := h.rooms[meta.ID]; old != nil {
		h.mu.Unlock()
		return old, nil
	}
	h.rooms[meta.ID] = r
	h.mu.Unlock()
	h.s.metrics.liveGames.Inc()
	go r.run()
	switch meta.Status {
	case match.Live:
		// A game interrupted by a restart: its clocks, bots and turn
		// notices carry on.
		r.post(func() { r.resume() })
	case match.Open:
		// Filling the last seat and starting are two writes; a crash
		// between them leaves a full open game, which starts now.
		r.post(func() {
			if err := r.startIfFull(context.Background()); err != nil {
				h.s.log.Error("start resumed game", "game", r.id, "err", err)
			}
		})
	}
	return r, nil
}

func (h *hub) remove(r *room) {
	h.mu.Lock()
	if h.rooms[r.id] == r {
		delete(h.rooms, r.id)
		h.s.metrics.liveGames.Dec()
	}
	h.mu.Unlock()
}

func (h *hub) stopAll() {
	h.mu.Lock()
	rooms := make([]*room, 0, len(h.rooms))
	for _, r := range h.rooms {
		rooms = append(rooms, r)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, r := range rooms {
		wg.Add(1)
		go func() { defer wg.Done(); r.stop() }()
	}
	wg.Wait()
}

func (h *hub) addUser(uid int64, c *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.users[uid]
	if m == nil {
		m = map[*sub]struct{}{}
		h.users[uid] = m
	}
	m[c] = struct{}{}
}

func (h *hub) removeUser(uid int64, c *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.users[uid], c)
	if len(h.users[uid]) == 0 {
		delete(h.users, uid)
	}
}

// toUser sends msg to every user channel of uid. It never blocks.
func (h *hub) toUser(uid int64, msg []byte) {
	if uid == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.users[uid] {
		c.send(msg)
	}
}

// sub is one WebSocket connection's outgoing queue. Rooms and the hub
// never block on it: a client that cannot keep up is disconnected (and gets
// a fresh snapshot when it reconnects).
type sub struct {
	user int64
	ch   chan []byte
	kick func()
}

const subQueue = 256

func newSub(user int64, kick func()) *sub {
	return &sub{user: user, ch: make(chan []byte, subQueue), kick: kick}
}

func (c *sub) send(msg []byte) {
	select {
	case c.ch <- msg:
	default:
		c.kick()
	}
}
