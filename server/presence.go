package server

import (
	"context"
	"crypto/rand"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabula-games/tabula/match"
)

// Presence: which players have a game page open on this node, told to each
// game's owner (match.CmdPresence — forwarded like any command, so the
// owner hears from every node, and counts each node's pages apart): once
// when a player's first page of the game opens here, again every
// match.PresenceEvery while one is open, and "gone" when the last one here
// closes. The owner decides who is away and when
// the others may claim (match/presence.go). Leaving a finished game's page
// also withdraws or declines its pending rematch (rematch.go).
//
// The tracker also knows the users online here: those with a WebSocket
// open here or seen signed in within onlineWindow. It writes them, with
// the game pages open here by their players, to the store, where every
// node reads the whole site's list (people.go); onlineCount is that
// list's count.

const onlineWindow = 2 * time.Minute

// DefaultRematchGrace is Config.RematchGrace's default: how long a
// player's pages of a finished game may all be closed here before their
// pending rematch is withdrawn or declined: reloading the page is not
// leaving it. 15 s, not 5: a reload on a slow phone (or a loaded
// machine) can take longer than 5 s, and withdrawing a rematch under a
// player who is coming back is worse than telling the other one a few
// seconds later that they left.
const DefaultRematchGrace = 15 * time.Second

type presenceKey struct {
	game string
	uid  int64
}

type presenceNews struct {
	presenceKey
	here bool
}

type presenceTracker struct {
	s *Server
	// source names this process to the games' owners: they count each
	// server's pages apart (match.Command.Source).
	source string
	mu     sync.Mutex
	pages  map[presenceKey]*pageCount
	socks  map[int64]int       // open WebSockets per user
	seen   map[int64]time.Time // last sign of each user
	queue  chan presenceNews
	// rematchWaits and rematchChecks count the rematch graces begun and
	// those run out and acted on (leaveRematchSoon), for the tests to
	// wait on.
	rematchWaits, rematchChecks atomic.Int64
	// board is this node's part of the site's online list (people.go).
	board board
}

type pageCount struct {
	n     int
	quiet bool // the game has no owner any more: no more news for it
}

func newPresence(s *Server) *presenceTracker {
	// The beat (people.go) deletes this node's presence as the server
	// stops: Shutdown waits for it, before the store closes.
	s.wg.Add(1)
	return &presenceTracker{s: s, source: rand.Text(), pages: map[presenceKey]*pageCount{}, socks: map[int64]int{},
		seen: map[int64]time.Time{}, queue: make(chan presenceNews, 1024), board: newBoard()}
}

// join counts a page of game open by player uid, and says so to the owner
// if it is the first here.
func (p *presenceTracker) join(game string, uid int64) {
	k := presenceKey{game, uid}
	p.mu.Lock()
	c := p.pages[k]
	if c == nil {
		c = &pageCount{}
		p.pages[k] = c
	}
	c.n++
	first := c.n == 1
	p.mu.Unlock()
	if first {
		p.tell(presenceNews{k, true})
		p.changed()
	}
}

// leave counts a page closed; the last one here is news.
func (p *presenceTracker) leave(game string, uid int64) {
	k := presenceKey{game, uid}
	p.mu.Lock()
	c := p.pages[k]
	last := false
	if c != nil {
		c.n--
		if c.n <= 0 {
			delete(p.pages, k)
			last = true
		}
	}
	p.mu.Unlock()
	if last {
		p.tell(presenceNews{k, false})
		p.changed()
	}
}

// tell queues news for the owner; when the queue is full it is dropped
// (a page still open is repeated, and a closed one ages out).
func (p *presenceTracker) tell(n presenceNews) {
	select {
	case p.queue <- n:
	default:
	}
}

// run delivers the news, and repeats every open page, until the server
// stops.
func (p *presenceTracker) run(ctx context.Context) {
	go p.beat(ctx)
	tick := time.NewTicker(match.PresenceEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-p.queue:
			p.deliver(ctx, n)
		case <-tick.C:
			p.mu.Lock()
			var open []presenceKey
			for k, c := range p.pages {
				if !c.quiet {
					open = append(open, k)
				}
			}
			p.mu.Unlock()
			for _, k := range open {
				p.tell(presenceNews{k, true})
			}
		}
	}
}

func (p *presenceTracker) deliver(runCtx context.Context, n presenceNews) {
	p.mu.Lock()
	c := p.pages[n.presenceKey]
	quiet := n.here && (c == nil || c.quiet)
	p.mu.Unlock()
	if quiet {
		return
	}
	ctx, cancel := context.WithTimeout(runCtx, 10*time.Second)
	defer cancel()
	_, err := p.s.tell(ctx, n.game, match.Command{Kind: match.CmdPresence, User: match.User{ID: n.uid}, Here: n.here, Source: p.source})
	var me *match.Error
	if errors.Is(err, match.ErrClosed) || (errors.As(err, &me) && (me.Code == match.CodeGameOver || me.Code == match.CodeForbidden)) {
		// No owner (the game is over), or not a player: nothing more to
		// say about this page — but a player leaving a finished game
		// leaves its rematch too.
		p.mu.Lock()
		if c := p.pages[n.presenceKey]; c != nil {
			c.quiet = true
		}
		p.mu.Unlock()
		p.changed() // not playing it any more
		if !n.here {
			go p.leaveRematchSoon(runCtx, n.presenceKey)
		}
	}
}

// leaveRematchSoon withdraws or declines the pending rematch of k's game
// for k's player after the rematch grace (Config.RematchGrace), unless a
// page of theirs has opened here again meanwhile (a reload).
func (p *presenceTracker) leaveRematchSoon(ctx context.Context, k presenceKey) {
	p.rematchWaits.Add(1)
	grace := p.s.cfg.RematchGrace
	if grace <= 0 {
		grace = DefaultRematchGrace
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return
	case <-t.C:
	}
	defer p.rematchChecks.Add(1)
	p.mu.Lock()
	back := p.pages[k] != nil
	p.mu.Unlock()
	if back {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p.s.leaveRematch(ctx, k.game, k.uid)
}

// socket counts a WebSocket of user uid opened (+1) or closed (-1).
func (p *presenceTracker) socket(uid int64, d int) {
	if uid == 0 {
		return
	}
	now := p.s.now()
	p.mu.Lock()
	was := p.isOnline(uid, now)
	p.socks[uid] += d
	if p.socks[uid] <= 0 {
		delete(p.socks, uid)
	}
	p.seen[uid] = now
	p.mu.Unlock()
	if !was {
		p.changed()
	}
}

// isOnline: user uid counts as online here at now. p.mu is held.
func (p *presenceTracker) isOnline(uid int64, now time.Time) bool {
	at, ok := p.seen[uid]
	return p.socks[uid] > 0 || (ok && now.Sub(at) < onlineWindow)
}

// saw notes a sign of user uid (a signed-in request).
func (p *presenceTracker) saw(uid int64) {
	now := p.s.now()
	p.mu.Lock()
	was := p.isOnline(uid, now)
	p.seen[uid] = now
	p.mu.Unlock()
	if !was {
		p.changed()
	}
}

// onlineCount is the number of users online on the site: the online
// list's count (people.go), or this node's own when that is higher (the
// news of a user just come has not reached the store yet) or cannot be
// read.
func (p *presenceTracker) onlineCount() int {
	n := p.localCount()
	if l, err := p.online(p.s.ctx); err == nil {
		n = max(n, l.users+l.guests)
	}
	return n
}

// localCount is the number of users online on this node: a WebSocket open,
// or seen within onlineWindow. It forgets the users last seen before that.
func (p *presenceTracker) localCount() int {
	now := p.s.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for uid, at := range p.seen {
		switch {
		case p.socks[uid] > 0 || now.Sub(at) < onlineWindow:
			n++
		default:
			delete(p.seen, uid)
		}
	}
	return n
}
