package cluster

import (
	"errors"
	"strconv"

	"github.com/nats-io/nats.go"
)

// Notices to a user (the server's usernotice.go): a message for every
// WebSocket of one user's channel, on whichever node it is open — their
// inbox changed, a player they follow started a game. It goes on
// PREFIX.notice.UID; a node subscribes to that subject while one of its
// connections is the user's channel (the server counts them, and asks for
// one subscription per user). The NATS connection is made with NoEcho, so
// the node that sends a notice does not hear it: it has handed it to its
// own connections already.

// NoticeUser sends data to user uid's channels on the other nodes.
func (n *Node) NoticeUser(uid int64, data []byte) error {
	return n.nc.Publish(n.subject("notice", strconv.FormatInt(uid, 10)), data)
}

// WatchNotices subscribes the node to user uid's notices from the other
// nodes, handing each to deliver (on NATS's goroutine for the
// subscription: deliver must not block). It returns once NATS has the
// subscription; stop ends it.
func (n *Node) WatchNotices(uid int64, deliver func(data []byte)) (stop func()) {
	sub, err := n.nc.Subscribe(n.subject("notice", strconv.FormatInt(uid, 10)), func(m *nats.Msg) { deliver(m.Data) })
	if err != nil {
		n.log.Warn("subscribe to notices", "user", uid, "err", err)
		return func() {}
	}
	if err := n.nc.FlushTimeout(flushTimeout); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		// NATS re-sends the subscription when it reconnects; a notice
		// sent meanwhile is lost, and the client asks again when it
		// reconnects (the inbox is computed from the store).
		n.log.Warn("subscribe to notices", "user", uid, "err", err)
	}
	return func() { sub.Unsubscribe() }
}
