package server

import (
	"context"
	"net/url"

	"github.com/tabula-games/tabula/store"
)

// tournamentInboxTopic is the topic of the inbox notice that a tournament
// a user plays has started; the notice's title is the tournament's name,
// which the client puts in a sentence of its language.
const tournamentInboxTopic = "tournament"

// tournamentStarted is the director's Config.Started (tournaments.go):
// each player of t gets an inbox notice linking to its page, and their
// bells hear of it on every node (addInboxNotice, notifyUser). The
// director runs on whichever node holds t's lease; the notices are stored,
// so a player on another node, or offline, finds them too. It works off
// the director's goroutine, which must not wait on the store for every
// player.
func (s *Server) tournamentStarted(t store.Tournament, players []int64) {
	if len(players) == 0 {
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		link := "#/tournament/" + url.PathEscape(t.ID)
		for _, uid := range players {
			if err := s.addInboxNotice(context.WithoutCancel(s.ctx), uid, tournamentInboxTopic, t.Name, link); err != nil {
				s.log.Warn("tournament start notice", "tournament", t.ID, "user", uid, "err", err)
			}
		}
	}()
}
