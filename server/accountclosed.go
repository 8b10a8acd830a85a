package server

import "github.com/tabula-games/tabula/server/wire"

// A moderator's closure of an account (moderation.go) ends, besides its
// sessions (notClosed, on every request), the WebSockets it has open: its
// user channels and game channels, on every node. The node that closes it
// sends the user the notice closedNotice by the notices' path
// (usernotice.go: PREFIX.notice.UID in a cluster); every node listens to a
// user's notices while it holds any of their channels (trackConn), and a
// node that gets this notice closes that user's connections instead of
// passing it on. The close frame says why: 1008 (policy violation) with a
// reason that starts "closed". The client's reconnect is then refused
// (401), as every request of a closed account is.

// closedReason is the close frame's reason of a closed account's sockets.
const closedReason = "closed: this account was closed by a moderator"

// noticeClosed is the kind of the notice that a user's account is closed;
// it never reaches a client (deliverNotice acts on it).
const noticeClosed = "closed"

// closedNotice is the bytes of that notice, compared whole on arrival.
var closedNotice = marshal(wire.Notice{Type: wire.TypeNotice, Kind: noticeClosed})

// trackConn counts wc among user uid's connections here until the
// returned stop, and listens to uid's notices meanwhile (listenNotices).
// It then reads the store once: an account closed between the request's
// sign-in check and now is closed here too, as its notice may have come
// before this node listened.
func (s *Server) trackConn(uid int64, wc *wsConn) (stop func()) {
	un := &s.notices
	un.mu.Lock()
	if un.conns == nil {
		un.conns = map[int64]map[*wsConn]struct{}{}
	}
	if un.conns[uid] == nil {
		un.conns[uid] = map[*wsConn]struct{}{}
	}
	un.conns[uid][wc] = struct{}{}
	un.mu.Unlock()
	unlisten := s.listenNotices(uid)
	if err := s.notClosed(wc.ctx, uid); err == errUnauthorized {
		wc.closed.Store(true)
		wc.cancel()
	}
	return func() {
		unlisten()
		un.mu.Lock()
		defer un.mu.Unlock()
		delete(un.conns[uid], wc)
		if len(un.conns[uid]) == 0 {
			delete(un.conns, uid)
		}
	}
}

// closeConnsHere ends every connection of user uid on this node, with
// the closed account's close frame.
func (s *Server) closeConnsHere(uid int64) {
	un := &s.notices
	un.mu.Lock()
	defer un.mu.Unlock()
	for wc := range un.conns[uid] {
		wc.closed.Store(true)
		wc.cancel()
	}
}

// closeConns ends user uid's connections on every node: here at once,
// and through the other nodes' notices.
func (s *Server) closeConns(uid int64) {
	s.deliverNotice(uid, closedNotice)
	if n, ok := s.cfg.Cluster.(UserNoticer); ok {
		if err := n.NoticeUser(uid, closedNotice); err != nil {
			s.log.Warn("closed account's sockets", "user", uid, "err", err)
		}
	}
}
