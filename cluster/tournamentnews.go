package cluster

import (
	"github.com/nats-io/nats.go"
)

// Tournament pages follow their tournament live (server/tournamentlive.go):
// the node where a tournament changes (a player joined, its director
// stored a round or a result) says so on PREFIX.tournament, which every
// node hears, and each hands it to the pages it streams the tournament to.
// It is best effort: a page that misses it asks again within 30 s.

// TournamentListener is what a node's remote publisher (Start's remote)
// implements to hear that a tournament changed on another node.
type TournamentListener interface {
	TournamentChanged(id string)
}

// tournamentV1 is the body of a typeTournament message.
type tournamentV1 struct {
	ID string `json:"id"`
}

// TournamentChanged tells the other nodes that tournament id changed.
func (n *Node) TournamentChanged(id string) {
	data, err := encode(typeTournament, n.id, tournamentV1{ID: id})
	if err == nil {
		err = n.nc.Publish(n.subject("tournament"), data)
	}
	if err != nil && n.ctx.Err() == nil {
		n.log.Warn("say that a tournament changed", "tournament", id, "err", err)
	}
}

// serveTournament hands another node's news of a tournament to l; a
// node's own news it has delivered already.
func (n *Node) serveTournament(l TournamentListener) nats.MsgHandler {
	return func(m *nats.Msg) {
		var b tournamentV1
		msg, err := decode(m.Data, typeTournament, &b)
		if err != nil {
			n.foreign(m.Subject, err)
			return
		}
		if msg.Node != n.id {
			l.TournamentChanged(b.ID)
		}
	}
}
