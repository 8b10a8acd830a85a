// Package director runs tournaments on a server: it starts each one at its
// time, pairs its rounds with package tournament, creates the games through
// the node's game registry (the lobby's path), watches their results,
// records the points and pairs the next round.
//
// Exactly one director runs a tournament at a time. It holds the
// tournament's lease in the store, as a node holds a game's ownership: a
// claim raises the tournament's epoch, and every write of the director is
// fenced by that epoch, so a director that lost the lease (its node paused
// or died) can write nothing more. A director that takes over reads
// everything from the store: the rounds already paired are stored before
// their games are created, and a board's game has an id derived from the
// tournament, round and board (GameID), so a replaced director neither
// loses, repeats nor changes a pairing — it creates the games still
// missing, and a game created already is found, not made twice.
package director

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Games is how a director creates and seats games: the node's
// match.Registry, or the server's wrapper of it that forwards commands to
// the node owning a game.
type Games interface {
	Create(ctx context.Context, creator match.User, m match.Meta) (match.Ack, error)
	Do(ctx context.Context, id string, c match.Command) (match.Ack, error)
}

// Store is what a director reads and writes.
type Store interface {
	store.Tournaments
	Game(ctx context.Context, id string) (match.Meta, error)
}

// Config configures a Director. Store, Games and Node are required.
type Config struct {
	Store Store
	Games Games
	// Node names this director's holder in the leases (unique per process).
	Node string
	// Now is the clock that decides when a tournament starts (default
	// time.Now). Leases are timed by the store's clock.
	Now func() time.Time
	// Lease is how long a claim lasts unrenewed (default 15 s); Tick how
	// often the director looks at its tournaments (default 1 s). A
	// director that stops is replaced within Lease plus Tick.
	Lease, Tick time.Duration
	Log         *slog.Logger
	// Started, if set, hears that a tournament has started, with the
	// users who play it (the server puts a notice in their inboxes). It
	// runs on the director's goroutine: it must not block.
	Started func(t store.Tournament, players []int64)
}

// Ahead is how long before its start a director takes a tournament on: one
// further ahead costs nothing until then.
const Ahead = time.Minute

// Director directs the tournaments whose lease it holds, and claims those
// nobody directs that start within Ahead.
type Director struct {
	cfg   Config
	mu    sync.Mutex
	owned map[string]int64 // tournament id → epoch
	wake  chan struct{}
}

// New returns a director; Run starts it.
func New(cfg Config) *Director {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 15 * time.Second
	}
	if cfg.Tick <= 0 {
		cfg.Tick = time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Director{cfg: cfg, owned: map[string]int64{}, wake: make(chan struct{}, 1)}
}

// Run directs tournaments until ctx ends, then releases its leases so that
// another director takes over at once.
func (d *Director) Run(ctx context.Context) {
	t := time.NewTicker(d.cfg.Tick)
	defer t.Stop()
	for {
		d.Step(ctx)
		select {
		case <-ctx.Done():
			d.releaseAll()
			return
		case <-t.C:
		case <-d.wake:
		}
	}
}

// Poke makes a running director look at its tournaments now (a tournament
// was created, a game ended).
func (d *Director) Poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Owns reports whether d holds tournament id's lease, and at what epoch.
func (d *Director) Owns(id string) (int64, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.owned[id]
	return e, ok
}

func (d *Director) releaseAll() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, e := range d.owned {
		if err := d.cfg.Store.ReleaseTournament(ctx, id, d.cfg.Node, e); err != nil {
			d.cfg.Log.Warn("release tournament", "tournament", id, "err", err)
		}
		delete(d.owned, id)
	}
}

// Step renews d's leases, claims the tournaments nobody directs and moves
// each of its own on as far as it can now. Run calls it every Tick; tests
// call it directly.
func (d *Director) Step(ctx context.Context) {
	if ids, err := d.cfg.Store.UndirectedTournaments(ctx, d.cfg.Now().Add(Ahead), 50); err != nil {
		if ctx.Err() == nil {
			d.cfg.Log.Warn("undirected tournaments", "err", err)
		}
	} else {
		d.mu.Lock()
		for _, id := range ids {
			if _, ok := d.owned[id]; !ok {
				d.owned[id] = 0
			}
		}
		d.mu.Unlock()
	}
	d.mu.Lock()
	ids := make([]string, 0, len(d.owned))
	for id := range d.owned {
		ids = append(ids, id)
	}
	d.mu.Unlock()
	for _, id := range ids {
		if ctx.Err() != nil {
			return
		}
		d.stepOne(ctx, id)
	}
}

// stepOne claims or renews tournament id's lease and moves it on.
func (d *Director) stepOne(ctx context.Context, id string) {
	d.mu.Lock()
	epoch := d.owned[id]
	d.mu.Unlock()
	drop := func() {
		d.mu.Lock()
		delete(d.owned, id)
		d.mu.Unlock()
	}
	e, err := d.cfg.Store.ClaimTournament(ctx, id, d.cfg.Node, epoch, d.cfg.Lease)
	switch {
	case errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrDeposed), errors.Is(err, store.ErrNotFound):
		drop()
		return
	case err != nil:
		if ctx.Err() == nil {
			d.cfg.Log.Warn("claim tournament", "tournament", id, "err", err)
		}
		return
	}
	if e != epoch {
		d.cfg.Log.Info("tournament claimed", "tournament", id, "node", d.cfg.Node, "epoch", e)
	}
	d.mu.Lock()
	d.owned[id] = e
	d.mu.Unlock()
	done, err := d.advance(ctx, id, e)
	switch {
	case errors.Is(err, store.ErrDeposed):
		d.cfg.Log.Info("tournament lost to another director", "tournament", id, "node", d.cfg.Node)
		drop()
	case err != nil:
		if ctx.Err() == nil {
			d.cfg.Log.Warn("direct tournament", "tournament", id, "err", err)
		}
	case done:
		_ = d.cfg.Store.ReleaseTournament(ctx, id, d.cfg.Node, e)
		drop()
	}
}
