package server

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/match"
)

// Cluster is how a node shares the site with other nodes (package cluster
// implements it, on PostgreSQL and NATS); nil in Config: this process owns
// every game, the default.
type Cluster interface {
	// Journal is what the node's owners write through instead of the
	// store: writes fenced by the node's ownership of each game.
	Journal() match.Journal
	// Publisher wraps the node's hub: the events of the games this node
	// owns go to its own connections and to the other nodes.
	Publisher(local match.Publisher) match.Publisher
	// Start joins the cluster: the node takes over orphaned games into
	// reg (it loads no others), runs the commands other nodes forward to
	// it, and hands the events of games owned elsewhere that its
	// connections watch (WatchGame, WatchUser) to remote.
	Start(ctx context.Context, reg *match.Registry, remote match.Publisher) error
	// Forward runs a command in a game owned by another node and answers
	// as if it had run here; match.ErrClosed when the game is neither open
	// nor live.
	Forward(ctx context.Context, id string, c match.Command) (match.Ack, error)
	// CreateElsewhere creates a game on another node whose bot budget has
	// room, which owns it: for a game with a bot seat that this node, at
	// its budget, should not take.
	CreateElsewhere(ctx context.Context, creator match.User, m match.Meta) (match.Ack, error)
	// WatchGame says that one more connection of this node listens to game
	// id's events (its stop: one fewer). A node hears only the games its
	// connections watch; WatchGame returns once the events will come, so
	// that a snapshot taken after it misses none.
	WatchGame(id string) (stop func())
	// WatchUser is WatchGame for user uid's channel.
	WatchUser(uid int64) (stop func())
	// Forget tells the other nodes that the names or ratings of uids
	// changed, so that they drop their cached copies (remote, given to
	// Start, hears it from them as ForgetUsers).
	Forget(uids []int64)
	// Healthy is nil while the node can serve (health checks ask).
	Healthy() error
	// Stop leaves the cluster once the node's owners have stopped: the
	// other nodes take its games over at once.
	Stop(ctx context.Context) error
}

// remoteEvents feeds the events of games owned by other nodes to this
// node's connections; unlike the hub's own Publish it counts no moves
// (their owners count them).
type remoteEvents struct{ h *hub }

func (r remoteEvents) Publish(e match.Event) { r.h.deliver(e) }

// ForgetUsers drops this node's cached names and ratings of users that
// another node says changed.
func (r remoteEvents) ForgetUsers(uids []int64) { r.h.s.forgetLocally(uids) }

// PollAnalysis, LeaveAnalysis, StopAnalysis and StopAnalysisBefore serve
// the analysis jobs that run here to the other nodes
// (cluster.AnalysisHost, analysisremote.go).
func (r remoteEvents) PollAnalysis(ctx context.Context, reader string, user int64, id string, after int, wait, lease time.Duration) (analysis.State, error) {
	return r.h.s.analyses.Poll(ctx, reader, user, id, after, wait, lease)
}

func (r remoteEvents) LeaveAnalysis(reader string, user int64, id string) {
	r.h.s.analyses.Leave(reader, user, id)
}

func (r remoteEvents) StopAnalysis(user int64, id string) error {
	j, err := r.h.s.analyses.Of(user, id)
	if err != nil {
		return err
	}
	j.Stop(analysis.EndStopped)
	return nil
}

func (r remoteEvents) StopAnalysisBefore(user int64, t time.Time) {
	r.h.s.analyses.StopUserBefore(user, t)
}

// forgetUsers drops the cached names and ratings of users that changed
// here, on this node and on every other.
func (s *Server) forgetUsers(uids []int64) {
	s.forgetLocally(uids)
	if s.cfg.Cluster != nil {
		s.cfg.Cluster.Forget(uids)
	}
}

func (s *Server) forgetLocally(uids []int64) {
	for _, id := range uids {
		s.ratings.Forget(id)
		s.accounts.ForgetName(id)
	}
}

// BotsFull reports that the node's bot pool is at its compute budget: a
// pool that can tell implements Saturated() bool (the first-come default
// never is). A cluster node at its budget takes over no more bot games.
func (s *Server) BotsFull() bool {
	if p, ok := s.bots.(interface{ Saturated() bool }); ok {
		return p.Saturated()
	}
	return false
}

// hasBot: a server bot holds one of the seats.
func hasBot(seats []match.Seat) bool {
	for _, se := range seats {
		if se.Kind == match.SeatBot {
			return true
		}
	}
	return false
}
