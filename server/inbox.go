package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The inbox: one list of what waits for a user — invitations to a seat
// (challenges among them: they are invitation games), their turn in
// correspondence games, the offers made to them in their games, and stored
// notices (a tournament's, through addInboxNotice) — with read and unread.
//
// Computed, not materialized. The items about games are derived on each
// request from the games themselves (the store, and the owners' rooms for
// offers), so they can never disagree with the game: an invitation
// accepted or withdrawn, a turn played, an offer declined simply is no
// longer there, and no write is needed on every move of every game on
// every node to keep a second copy right. Only what a game cannot say is
// stored: which items the user has read (store.Social's read marks, by the
// item's id, so a mark holds across tabs and nodes) and the notices that
// have no game. An item's id names the thing itself — "turn:GAME:PLY" —
// so the next turn in the same game is a new, unread item.
//
// Live: an event of a game (hub.Publish on its owner's node) tells the
// users of its seats that their inbox changed (notifyUser: every channel
// of theirs on every node), and marking items read tells the user's other
// tabs the new unread count.
//
// Bounds (a flood cannot make a request or the store grow without end):
// at most inboxMaxGames open and live games are looked at per request,
// the newest inboxKeepNotices stored notices are kept per user, read marks
// older than inboxForgetReads are deleted, and one request marks at most
// inboxMaxRead ids.
const (
	inboxMaxGames    = 100
	inboxKeepNotices = 200
	inboxForgetReads = 90 * 24 * time.Hour
	inboxMaxRead     = 200
	inboxMaxPage     = 100
	inboxDefaultPage = 50
)

// socialStore is the store's follows and inbox marks; every store.Store of
// the project keeps them (store/internal/sqlstore).
func (s *Server) socialStore() (store.Social, error) {
	ss, ok := s.store.(store.Social)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no follows or inbox")
	}
	return ss, nil
}

// inboxItems is every item of u's inbox, newest first, with read marks and
// the number unread.
func (s *Server) inboxItems(ctx context.Context, ss store.Social, uid int64) ([]wire.InboxItem, int, error) {
	var items []wire.InboxItem
	open, err := s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Open}, UserID: uid, Limit: inboxMaxGames})
	if err != nil {
		return nil, 0, s.internal("inbox invitations", err)
	}
	for i := range open {
		m := &open[i]
		if !m.Invites(uid) {
			continue
		}
		if s.blocks(ctx, uid, m.CreatorID) {
			continue // an invitation from a player the user has blocked since
		}
		it := wire.InboxItem{ID: "invite:" + m.ID, Kind: wire.InboxInvitation, Game: m.Game, GameID: m.ID,
			From: s.userName(ctx, m.CreatorID), Link: "#/game/" + m.ID, Created: m.Created.UTC()}
		if !m.Expires.IsZero() {
			// A challenge (challenges.go): an invitation that expires.
			it.Kind, it.Expires = wire.InboxChallenge, timePtr(m.Expires)
		}
		items = append(items, it)
	}
	live, err := s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Live}, UserID: uid, Limit: inboxMaxGames})
	if err != nil {
		return nil, 0, s.internal("inbox games", err)
	}
	for i := range live {
		items = append(items, s.gameItems(ctx, &live[i], uid)...)
	}
	notices, err := ss.Notices(ctx, uid, inboxKeepNotices)
	if err != nil {
		return nil, 0, s.internal("inbox notices", err)
	}
	for _, n := range notices {
		items = append(items, wire.InboxItem{ID: "n:" + strconv.FormatInt(n.ID, 10), Kind: wire.InboxNotice, Topic: n.Kind,
			Title: n.Title, Link: n.Link, Created: n.Created.UTC()})
	}
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = it.ID
	}
	read, err := ss.ReadKeys(ctx, uid, keys)
	if err != nil {
		return nil, 0, s.internal("inbox read marks", err)
	}
	unread := 0
	for i := range items {
		items[i].Read = read[items[i].ID]
		if !items[i].Read {
			unread++
		}
	}
	slices.SortStableFunc(items, func(a, b wire.InboxItem) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return items, unread, nil
}

// gameItems is what live game m holds for user uid: their turn (a game
// without a real-time clock: in a real-time game the player is at the
// board) and the offers made to them.
func (s *Server) gameItems(ctx context.Context, m *match.Meta, uid int64) []wire.InboxItem {
	seat := m.SeatOf(uid)
	if seat < 0 {
		return nil
	}
	var out []wire.InboxItem
	var room *match.Room
	since := m.Started
	if snap, err := s.games.Snapshot(ctx, m.ID); err == nil {
		// The owner is here: the game as it stands, with its room.
		m = &snap.Meta
		room = snap.Room
		if n := len(snap.Moves); n > 0 {
			since = snap.Moves[n-1].At
		}
	} else if s.cfg.Cluster != nil {
		if ack, err := s.tell(ctx, m.ID, match.Command{Kind: match.CmdRoom, User: match.User{ID: uid}}); err == nil {
			room = ack.Room
		}
	}
	if m.Status == match.Live && m.ToMove == seat && m.Clock.Kind != match.ClockRealtime {
		out = append(out, wire.InboxItem{ID: fmt.Sprintf("turn:%s:%d", m.ID, m.Ply), Kind: wire.InboxTurn, Game: m.Game, GameID: m.ID,
			From: s.opponentName(ctx, m, seat), Link: "#/game/" + m.ID, Created: since.UTC()})
	}
	if room == nil {
		return out
	}
	for _, o := range room.Offers {
		if o.Seat == seat || slices.Contains(o.Accepted, seat) || o.Seat < 0 || o.Seat >= len(m.Seats) {
			continue
		}
		from := m.Seats[o.Seat].UserID
		if s.blocks(ctx, uid, from) {
			continue
		}
		out = append(out, wire.InboxItem{ID: fmt.Sprintf("offer:%s:%s:%d:%d", m.ID, o.Kind, o.Seat, o.Ply), Kind: wire.InboxOffer,
			Game: m.Game, GameID: m.ID, From: s.userName(ctx, from), Offer: string(o.Kind), Link: "#/game/" + m.ID,
			// An offer lasts until the next move: it is news now.
			Created: s.now().UTC()})
	}
	return out
}

// opponentName is the first other person's name in m, "" if none.
func (s *Server) opponentName(ctx context.Context, m *match.Meta, seat int) string {
	for i, se := range m.Seats {
		if i != seat && se.Kind == match.SeatHuman && se.UserID != 0 {
			return s.userName(ctx, se.UserID)
		}
	}
	return ""
}

// blocks reports whether uid blocks other (false when the store cannot say).
func (s *Server) blocks(ctx context.Context, uid, other int64) bool {
	bs, ok := s.store.(store.Blocks)
	if !ok || other == 0 || other == uid {
		return false
	}
	b, err := bs.Blocked(ctx, uid, other)
	return err == nil && b
}

// handleInbox is GET /api/inbox?offset=N&limit=M: one page of the user's
// inbox.
func (s *Server) handleInbox(w http.ResponseWriter, r *http.Request, u *store.User) {
	ss, err := s.socialStore()
	if err != nil {
		writeError(w, err)
		return
	}
	offset, err := queryInt(r, "offset", 0, 0, 10000)
	if err != nil {
		writeError(w, err)
		return
	}
	limit, err := queryInt(r, "limit", inboxDefaultPage, 1, inboxMaxPage)
	if err != nil {
		writeError(w, err)
		return
	}
	items, unread, err := s.inboxItems(r.Context(), ss, u.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	out := wire.Inbox{Items: []wire.InboxItem{}, Unread: unread, Total: len(items), Offset: offset}
	if offset < len(items) {
		end := min(len(items), offset+limit)
		out.Items = items[offset:end]
		if end < len(items) {
			out.Next = &end
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// handleInboxUnread is GET /api/inbox/unread: the bell's number.
func (s *Server) handleInboxUnread(w http.ResponseWriter, r *http.Request, u *store.User) {
	ss, err := s.socialStore()
	if err != nil {
		writeError(w, err)
		return
	}
	_, unread, err := s.inboxItems(r.Context(), ss, u.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.InboxUnread{Unread: unread})
}

// handleInboxRead is POST /api/inbox/read: marks the items named (only
// the user's own: an id that is not among their items marks nothing), or
// all of them; the user's other channels hear the new count.
func (s *Server) handleInboxRead(w http.ResponseWriter, r *http.Request, u *store.User) {
	ss, err := s.socialStore()
	if err != nil {
		writeError(w, err)
		return
	}
	var req wire.InboxRead
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	if req.All == (len(req.IDs) > 0) {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "send either ids (at most %d) or all: true", inboxMaxRead))
		return
	}
	if len(req.IDs) > inboxMaxRead {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "at most %d ids at once", inboxMaxRead))
		return
	}
	for _, id := range req.IDs {
		if id == "" || len(id) > 200 {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "an id is 1 to 200 characters"))
			return
		}
	}
	items, unread, err := s.inboxItems(r.Context(), ss, u.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	want := map[string]bool{}
	for _, id := range req.IDs {
		want[id] = true
	}
	var keys []string
	for _, it := range items {
		if !it.Read && (req.All || want[it.ID]) {
			keys = append(keys, it.ID)
		}
	}
	now := s.now()
	if len(keys) > 0 {
		if err := ss.MarkRead(r.Context(), u.ID, keys, now, now.Add(-inboxForgetReads)); err != nil {
			writeError(w, s.internal("mark read", err))
			return
		}
		unread -= len(keys)
		s.notifyUser(u.ID, inboxNotice(unread))
	}
	marked := len(keys)
	writeJSON(w, http.StatusOK, wire.InboxUnread{Unread: unread, Marked: &marked})
}

// addInboxNotice stores a notice in user uid's inbox and tells their
// channels: the hook for what has no game to derive it from (a
// tournament starting). topic is a short word ("tournament"), title the
// text, link a site link ("#/…": nothing else is accepted, so a notice
// cannot carry a link off the site or a script).
func (s *Server) addInboxNotice(ctx context.Context, uid int64, topic, title, link string) error {
	ss, err := s.socialStore()
	if err != nil {
		return err
	}
	if !strings.HasPrefix(link, "#/") || strings.ContainsAny(link, " \"'<>") || title == "" || len(title) > 300 || topic == "" || len(topic) > 30 {
		return errf(http.StatusBadRequest, "bad_request", "a notice needs a topic, a title of at most 300 characters and a #/ link")
	}
	n := store.InboxNotice{UserID: uid, Kind: topic, Title: title, Link: link, Created: s.now()}
	if err := ss.AddNotice(ctx, &n, inboxKeepNotices); err != nil {
		return s.internal("add notice", err)
	}
	s.notifyUser(uid, inboxNotice(-1))
	return nil
}

// inboxEvent is called by the hub with every event of the games this node
// owns (once per event on the whole site): the users whose inbox it
// changes hear so, and a start is news for the players' followers.
func (s *Server) inboxEvent(e *match.Event) {
	var who []int64
	add := func(kinds ...match.SeatKind) {
		for _, se := range e.Meta.Seats {
			if se.UserID != 0 && slices.Contains(kinds, se.Kind) && !slices.Contains(who, se.UserID) {
				who = append(who, se.UserID)
			}
		}
	}
	switch e.Kind {
	case match.EventCreated, match.EventLobby, match.EventStart, match.EventEnd:
		add(match.SeatHuman, match.SeatInvite)
	case match.EventOffer, match.EventTakeback:
		add(match.SeatHuman)
	case match.EventMove:
		if e.Meta.Clock.Kind != match.ClockRealtime {
			add(match.SeatHuman) // a turn passed from one to the other
		}
	}
	for _, uid := range who {
		s.notifyUser(uid, inboxNotice(-1))
	}
	if e.Kind == match.EventStart {
		s.inbox.queue(s, e.Meta.Clone())
	}
}

// inboxQueue is the starts waiting to be told to the players' followers
// (which asks the store, so not on the owner's goroutine). Its zero value
// is ready; one goroutine drains it until the server stops. When it is
// full a start is not told (counted in dropped): the followers still see
// the game on their Following list.
type inboxQueue struct {
	once    sync.Once
	ch      chan match.Meta
	dropped int64
	mu      sync.Mutex
}

const inboxQueueLen = 1024

func (q *inboxQueue) queue(s *Server, m match.Meta) {
	q.once.Do(func() {
		q.ch = make(chan match.Meta, inboxQueueLen)
		go func() {
			for {
				select {
				case <-s.ctx.Done():
					return
				case m := <-q.ch:
					s.tellFollowers(m)
				}
			}
		}()
	})
	select {
	case q.ch <- m:
	default:
		q.mu.Lock()
		q.dropped++
		q.mu.Unlock()
	}
}

// tellFollowers tells the followers of each person in game m that it
// started (at most maxStartFanout followers each, the newest).
func (s *Server) tellFollowers(m match.Meta) {
	ss, ok := s.store.(store.Social)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	for _, se := range m.Seats {
		if se.Kind != match.SeatHuman || se.UserID == 0 {
			continue
		}
		fs, err := ss.Followers(ctx, se.UserID, maxStartFanout)
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				s.log.Warn("followers", "user", se.UserID, "err", err)
			}
			return
		}
		if len(fs) == 0 {
			continue
		}
		n := wire.Notice{Type: wire.TypeNotice, Kind: wire.NoticeStarted, User: s.userName(ctx, se.UserID), GameID: m.ID, Game: m.Game}
		for _, f := range fs {
			if m.SeatOf(f) < 0 {
				s.notifyUser(f, n)
			}
		}
	}
}
