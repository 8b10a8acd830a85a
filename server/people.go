package server

import (
	"context"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Finding people (issue 24, item 3): GET /api/users?prefix=… searches the
// registered users by name, and GET /api/online/players lists who is
// online on the whole site — playing a game, or idle.
//
// Who is online is each node's word, kept in the store (store.Presence):
// the node's presence tracker (presence.go) knows the users with a
// WebSocket open here or seen signed in lately, and the game pages open
// here by their players. The node writes what changed (at most once every
// presenceGap, however many sockets come and go) and, every presenceBeat,
// stamps all its rows at once; every node reads the same rows, so the list
// is the same on every node (each node caches it onlineCacheFor, and a
// change reaches the others within presenceGap plus that). A row not
// stamped for presenceExpiry no longer counts, and the next beat of any
// node deletes it: a node that died stops counting its users that long
// after. A node that stops cleanly deletes its rows at once.

const (
	presenceBeat   = 10 * time.Second
	presenceExpiry = 3*presenceBeat + 5*time.Second
	presenceGap    = time.Second
	onlineCacheFor = time.Second
	// onlineRows bounds the rows one read of the list returns (a user
	// and one game of theirs each): the list is cut there, and says so.
	onlineRows = 1000
	// gamesPerUser bounds the game pages of one user that a node writes.
	gamesPerUser = 8

	searchDefault = 10
	searchMax     = 50
	prefixMax     = 24 // no name is longer (account.validName)
)

// validPrefix is the start of a name: names are letters, digits, "_" and
// "-" (account.validName); a prefix with anything else could match none.
var validPrefix = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// onlineList is the site's online list as last read from the store.
type onlineList struct {
	read    time.Time // on the process's own clock: when it was read
	entries []store.OnlineEntry
	users   int
	guests  int
	cut     bool
}

// board is the tracker's side of the store's presence rows.
type board struct {
	// flushMu orders the writes: written is what the store holds of this
	// node.
	flushMu sync.Mutex
	written map[store.PresenceEntry]bool
	// last is when news was last written (UnixNano, the process's
	// clock): the beat reads it without waiting for a write in progress.
	last atomic.Int64
	news chan struct{}

	// listMu makes one read of the list at a time: a flood of requests
	// waits for one query, then shares its answer.
	listMu sync.Mutex
	list   *onlineList
	stale  bool // this node wrote since list was read
}

func newBoard() board {
	return board{written: map[store.PresenceEntry]bool{}, news: make(chan struct{}, 1)}
}

// changed says that this node's rows may differ from the store's: they
// are written within presenceGap.
func (p *presenceTracker) changed() {
	select {
	case p.board.news <- struct{}{}:
	default:
	}
}

// beat writes this node's presence until the server stops, then deletes
// it. The server's WaitGroup holds the store open until it has.
func (p *presenceTracker) beat(ctx context.Context) {
	defer p.s.wg.Done()
	tick := time.NewTicker(presenceBeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			end, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			p.leaveBoard(end)
			cancel()
			return
		case <-tick.C:
			p.flush(ctx, true)
		case <-p.board.news:
			if wait := presenceGap - time.Since(time.Unix(0, p.board.last.Load())); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					continue
				case <-t.C:
				}
			}
			p.flush(ctx, false)
		}
	}
}

// wanted is what this node says of its users now: each user online here
// (a WebSocket open, or seen within onlineWindow), and each game page open
// here by one of its players (at most gamesPerUser a user).
func (p *presenceTracker) wanted() map[store.PresenceEntry]bool {
	now := p.s.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[store.PresenceEntry]bool, len(p.seen))
	for uid, at := range p.seen {
		if p.socks[uid] > 0 || now.Sub(at) < onlineWindow {
			out[store.PresenceEntry{UserID: uid}] = true
		} else {
			delete(p.seen, uid)
		}
	}
	per := map[int64]int{}
	for k, c := range p.pages {
		if c.quiet || per[k.uid] >= gamesPerUser {
			continue
		}
		per[k.uid]++
		out[store.PresenceEntry{UserID: k.uid}] = true
		out[store.PresenceEntry{UserID: k.uid, GameID: k.game}] = true
	}
	return out
}

// flush writes what changed of this node's rows since the last write; a
// beat (refresh) stamps them all and expires every node's stale rows.
func (p *presenceTracker) flush(ctx context.Context, refresh bool) {
	ps, ok := p.s.store.(store.Presence)
	if !ok {
		return
	}
	b := &p.board
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	want := p.wanted()
	w := store.PresenceWrite{Node: p.source, At: p.s.now(), Refresh: refresh}
	for e := range want {
		if !b.written[e] {
			w.Add = append(w.Add, e)
		}
	}
	for e := range b.written {
		if !want[e] {
			w.Remove = append(w.Remove, e)
		}
	}
	if !refresh && len(w.Add) == 0 && len(w.Remove) == 0 {
		return
	}
	if refresh {
		w.ExpireBefore = w.At.Add(-presenceExpiry)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	n, err := ps.WritePresence(wctx, w)
	b.last.Store(time.Now().UnixNano())
	if err != nil {
		// Nothing was written (one transaction): the next write tries
		// the same change again.
		if ctx.Err() == nil {
			p.s.log.Warn("write presence", "err", err)
		}
		return
	}
	b.written = want
	if refresh && n < len(want) {
		// Rows expired under this node (it paused longer than the
		// expiry): write them all again.
		b.written = map[store.PresenceEntry]bool{}
		all := store.PresenceWrite{Node: p.source, At: w.At}
		for e := range want {
			all.Add = append(all.Add, e)
		}
		if _, err := ps.WritePresence(wctx, all); err != nil {
			p.s.log.Warn("write presence", "err", err)
			p.changed()
		} else {
			b.written = want
		}
	}
	b.listMu.Lock()
	b.stale = true
	b.listMu.Unlock()
}

// leaveBoard deletes this node's rows: its users are online elsewhere or
// not at all.
func (p *presenceTracker) leaveBoard(ctx context.Context) {
	ps, ok := p.s.store.(store.Presence)
	if !ok {
		return
	}
	p.board.flushMu.Lock()
	defer p.board.flushMu.Unlock()
	if len(p.board.written) == 0 {
		return
	}
	if _, err := ps.WritePresence(ctx, store.PresenceWrite{Node: p.source, Clear: true}); err != nil {
		p.s.log.Warn("clear presence", "err", err)
		return
	}
	p.board.written = map[store.PresenceEntry]bool{}
}

// online is the site's online list, read from the store at most once
// every onlineCacheFor (or after this node wrote).
func (p *presenceTracker) online(ctx context.Context) (*onlineList, error) {
	ps, ok := p.s.store.(store.Presence)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no online list")
	}
	b := &p.board
	b.listMu.Lock()
	defer b.listMu.Unlock()
	if b.list != nil && !b.stale && time.Since(b.list.read) < onlineCacheFor {
		return b.list, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	since := p.s.now().Add(-presenceExpiry)
	l := &onlineList{read: time.Now()}
	b.stale = false
	var err error
	if l.entries, err = ps.OnlineUsers(ctx, since, onlineRows+1); err != nil {
		return nil, err
	}
	if len(l.entries) > onlineRows {
		// Cut before the last user, whose games may go on past the rows.
		last := l.entries[onlineRows-1].UserID
		i := onlineRows
		for i > 0 && l.entries[i-1].UserID == last {
			i--
		}
		l.entries, l.cut = l.entries[:i], true
	}
	if l.users, l.guests, err = ps.OnlineCount(ctx, since); err != nil {
		return nil, err
	}
	b.list = l
	return l, nil
}

// players is the list as the API gives it: one entry per user, by name,
// with the live games they play.
func (l *onlineList) players() []wire.OnlinePlayer {
	out := []wire.OnlinePlayer{}
	for _, e := range l.entries {
		if len(out) == 0 || out[len(out)-1].Name != e.Name {
			out = append(out, wire.OnlinePlayer{Name: e.Name, State: wire.StateIdle})
		}
		if e.GameID != "" && e.Status == match.Live {
			pl := &out[len(out)-1]
			pl.State = wire.StatePlaying
			pl.Games = append(pl.Games, wire.PlayingGame{ID: e.GameID, Game: e.Game})
		}
	}
	return out
}

// handleOnlinePlayers answers GET /api/online/players.
func (s *Server) handleOnlinePlayers(w http.ResponseWriter, r *http.Request) {
	l, err := s.presence.online(r.Context())
	if err != nil {
		writeError(w, s.internal("online players", err))
		return
	}
	writeJSON(w, http.StatusOK, wire.OnlinePlayers{Players: l.players(), Users: l.users, Guests: l.guests, Truncated: l.cut})
}

// handleSearchUsers answers GET /api/users?prefix=…&limit=….
func (s *Server) handleSearchUsers(w http.ResponseWriter, r *http.Request) {
	ppl, ok := s.store.(store.People)
	if !ok {
		writeError(w, errf(http.StatusNotImplemented, "not_implemented", "this server's store cannot search users"))
		return
	}
	prefix := r.URL.Query().Get("prefix")
	switch {
	case prefix == "":
		writeError(w, errf(http.StatusBadRequest, "bad_request", "prefix is required: the first letters of a name"))
		return
	case len(prefix) > prefixMax:
		writeError(w, errf(http.StatusBadRequest, "bad_request", "prefix is longer than any name (%d characters at most)", prefixMax))
		return
	case !validPrefix.MatchString(prefix):
		writeError(w, errf(http.StatusBadRequest, "bad_request", "prefix: names have only letters, digits, _ and -"))
		return
	}
	limit, err := queryInt(r, "limit", searchDefault, 1, searchMax)
	if err != nil {
		writeError(w, err)
		return
	}
	users, err := ppl.UsersByPrefix(r.Context(), prefix, limit)
	if err != nil {
		writeError(w, s.internal("search users", err))
		return
	}
	on := map[int64]bool{}
	if l, err := s.presence.online(r.Context()); err == nil {
		for _, e := range l.entries {
			on[e.UserID] = true
		}
	}
	out := wire.UserSearch{Users: []wire.FoundUser{}}
	for _, u := range users {
		out.Users = append(out.Users, wire.FoundUser{Name: u.Name, Online: on[u.ID]})
	}
	writeJSON(w, http.StatusOK, out)
}
