package server

import (
	"bytes"
	"sync"

	"github.com/tabula-games/tabula/server/wire"
)

// Notices to a user: one message for every WebSocket of a user's channel
// (GET /api/ws) on every node — their inbox changed (inbox.go), a player
// they follow started a game (follows.go). The node that sends one hands
// it to its own connections of that user through the hub, and, in a
// cluster, publishes it for the others (UserNoticer); each node listens to
// a user's notices while it holds one of their channels.
//
// A notice is a nudge, not a record: one that is lost (a node between
// subscriptions, a full queue) is made good by the client asking the API
// again when its channel reconnects, since everything a notice announces
// can be read from the store.

// UserNoticer is what a Cluster implements to carry notices to the users'
// channels on the other nodes (package cluster does: usernotice.go). A
// Cluster without it carries none: each node tells only its own
// connections.
type UserNoticer interface {
	// NoticeUser sends data to user uid's channels on the other nodes.
	NoticeUser(uid int64, data []byte) error
	// WatchNotices hands the notices other nodes send to user uid to
	// deliver, from when it returns until stop.
	WatchNotices(uid int64, deliver func(data []byte)) (stop func())
}

// userNotices counts, per user, the channels of this node that listen to
// their notices: the first subscribes the node (a cluster), the last
// unsubscribes it. Its zero value is ready.
type userNotices struct {
	mu    sync.Mutex
	users map[int64]*noticeWatch
	// conns is every WebSocket (user and game channels) of each signed-in
	// user on this node, which a closure of their account ends
	// (accountclosed.go).
	conns map[int64]map[*wsConn]struct{}
}

type noticeWatch struct {
	n     int
	ready chan struct{}
	stop  func()
}

// notifyUser sends v (a wire message) to every channel of user uid on
// every node. It never blocks on a connection: a client that cannot keep
// up is disconnected, as with game events.
func (s *Server) notifyUser(uid int64, v any) {
	if uid == 0 {
		return
	}
	data := marshal(v)
	s.deliverNotice(uid, data)
	if n, ok := s.cfg.Cluster.(UserNoticer); ok {
		if err := n.NoticeUser(uid, data); err != nil {
			s.log.Warn("notice to user", "user", uid, "err", err)
		}
	}
}

// deliverNotice hands data to this node's channels of user uid.
func (s *Server) deliverNotice(uid int64, data []byte) {
	if bytes.Equal(data, closedNotice) {
		s.closeConnsHere(uid)
		return
	}
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.users[uid] {
		c.send(outgoing{msg: data})
	}
}

// listenNotices says that one more channel of user uid is open here; in a
// cluster the first subscribes the node to the user's notices, and returns
// once they will come. The returned stop says it closed.
func (s *Server) listenNotices(uid int64) (stop func()) {
	n, ok := s.cfg.Cluster.(UserNoticer)
	if !ok || uid == 0 {
		return func() {}
	}
	un := &s.notices
	un.mu.Lock()
	if un.users == nil {
		un.users = map[int64]*noticeWatch{}
	}
	w := un.users[uid]
	if w != nil {
		w.n++
		un.mu.Unlock()
		<-w.ready
	} else {
		w = &noticeWatch{n: 1, ready: make(chan struct{})}
		un.users[uid] = w
		un.mu.Unlock()
		stop := n.WatchNotices(uid, func(data []byte) { s.deliverNotice(uid, data) })
		un.mu.Lock()
		w.stop = stop
		if w.n == 0 {
			stop() // every channel closed meanwhile
		}
		un.mu.Unlock()
		close(w.ready)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			un.mu.Lock()
			defer un.mu.Unlock()
			w.n--
			if w.n > 0 {
				return
			}
			if un.users[uid] == w {
				delete(un.users, uid)
			}
			if w.stop != nil {
				w.stop()
			}
		})
	}
}

// inboxNotice is the notice that user's inbox changed; unread < 0: the
// count is not known (the client asks).
func inboxNotice(unread int) wire.Notice {
	n := wire.Notice{Type: wire.TypeNotice, Kind: wire.NoticeInbox}
	if unread >= 0 {
		n.Unread = &unread
	}
	return n
}
