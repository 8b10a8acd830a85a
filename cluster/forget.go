package cluster

import (
	"github.com/nats-io/nats.go"
)

// A node caches users' names and ratings (for the names and ratings shown
// beside players) and hears only the games its connections watch, so it
// cannot learn from a game's end that its players' ratings changed. The
// node where a change happens says so on PREFIX.forget, which every node
// hears, and each drops its copies at once instead of serving them until
// they expire.

// Forgetter is what a node's remote publisher (Start's remote) implements
// to drop its cached copies of users when another node says they changed.
type Forgetter interface {
	ForgetUsers(uids []int64)
}

// Forget tells the other nodes that the names or ratings of uids changed
// (the caller has dropped its own copies). It is best effort: a node that
// misses it serves its copy until it expires, as before.
func (n *Node) Forget(uids []int64) {
	if len(uids) == 0 {
		return
	}
	data, err := encode(typeForget, n.id, forgetV1{Users: uids})
	if err == nil {
		err = n.nc.Publish(n.subject("forget"), data)
	}
	if err != nil && n.ctx.Err() == nil {
		n.log.Warn("say that users changed", "users", uids, "err", err)
	}
}

// serveForget drops the copies that another node says changed.
func (n *Node) serveForget(f Forgetter) nats.MsgHandler {
	return func(m *nats.Msg) {
		var b forgetV1
		if _, err := decode(m.Data, typeForget, &b); err != nil {
			n.foreign(m.Subject, err)
			return
		}
		f.ForgetUsers(b.Users)
	}
}
