package server

import (
	"context"
	"net/http"

	"github.com/tabula-games/tabula/store"
)

// A person who has entered a tournament that admits no bots must not turn
// the account into a bot afterwards: the tournament checks bots only when
// they join, so the conversion is refused while such a tournament is
// upcoming or running with the user in it (not withdrawn).

// maxTournamentsChecked bounds the listing; nobody is in more tournaments
// that have not finished.
const maxTournamentsChecked = 1000

// notInBotlessTournament refuses to make uid a bot while uid is in an
// upcoming or running tournament that does not admit bots: 409
// in_tournament, naming it.
func (s *Server) notInBotlessTournament(ctx context.Context, uid int64) error {
	ts, ok := s.store.(store.Tournaments)
	if !ok {
		return nil // no tournaments, nothing to be in
	}
	list, err := ts.ListTournaments(ctx, store.TournamentFilter{
		Statuses: []store.TournamentStatus{store.TournamentUpcoming, store.TournamentRunning},
		Player:   uid, Limit: maxTournamentsChecked})
	if err != nil {
		return s.internal("tournaments of a user", err)
	}
	for _, t := range list {
		if !t.Bots {
			return errf(http.StatusConflict, "in_tournament",
				"you are in the tournament %q, which does not admit bot accounts; withdraw from it (or wait until it finishes) before the account becomes a bot", t.Name)
		}
	}
	return nil
}
